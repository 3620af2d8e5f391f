"""Update chains stated in the same words: the second kind of chat update, for the chat store.

``chat_histories`` holds chains whose update says the new value *in other words* ("I've added 17
new postcards" / "that takes me to 25 new ones since I picked the hobby back up"), which no
structural reading can pair. People also restate a fact the way they first said it, with the
new value in its place ("I've added 17 new postcards…" / "…I've added 25 new postcards…"), with or
without a word saying it changed. This module writes such chains: hand-written fact sentences
(old and new), each wrapped in ordinary chat by the same writer that builds the histories (an
opener, an aside, a background sentence of the topic, an unrelated follow-on question), so
nothing but the fact marks them out.

Written for this project by its developers, from imagination, without looking at any external
benchmark (LongMemEval included); only the standard library is used. Deterministic per seed.
"""

from __future__ import annotations

import random

from evaluation.chat_histories import ChatChain, _Writer

# (topic, old fact, new fact, question). About half the updates carry a word saying they are one
# ("now", "moved to", "changed"); the others only state the new value.
RESTATED = (
    ("running", "My weekly mileage is about 25 km at the moment.", "My weekly mileage is about 40 km at the moment.",
     "How far do I run each week?"),
    ("gym", "My squat one-rep max is 80 kg.", "My squat one-rep max is now 92 kg.", "What is my squat max?"),
    ("dog", "Biscuit's vet is Dr Patel at the Cotham surgery.", "Biscuit's vet is Dr Morgan at the Cotham surgery.",
     "Who is Biscuit's vet?"),
    ("cat", "Miso's food is the salmon kibble from the pet shop on Gloucester Road.",
     "Miso's food is the chicken kibble from the pet shop on Gloucester Road.", "What food does Miso eat?"),
    ("houseplants", "I water the monstera every 7 days.", "I water the monstera every 10 days now.",
     "How often do I water the monstera?"),
    ("gardening", "Our allotment plot is number 14.", "Our allotment plot is number 22.",
     "Which allotment plot is ours?"),
    ("finances", "Our rent is £1,150 a month.", "Our rent is £1,240 a month from June.", "How much is our rent?"),
    ("investing", "I put £200 a month into the index fund.", "I put £350 a month into the index fund.",
     "How much do I invest each month?"),
    ("books", "My reading goal for the year is 24 books.", "My reading goal for the year is 30 books.",
     "What is my reading goal?"),
    ("music", "My piano lessons are on Tuesday evenings.", "My piano lessons moved to Thursday evenings.",
     "When are my piano lessons?"),
    ("language", "My Duolingo streak is at 120 days.", "My Duolingo streak is at 175 days.",
     "How long is my Duolingo streak?"),
    ("work", "My manager is Priya.", "My manager is Marcus now.", "Who is my manager?"),
    ("work", "Our team standup is at 9:30.", "Our team standup is at 10:15.", "When is our standup?"),
    ("career", "My salary is £48,000.", "My salary is £53,500 after the review.", "What is my salary?"),
    ("transport", "My commute is 35 minutes by bike.", "My commute is 50 minutes by bike since the office move.",
     "How long is my commute?"),
    ("travel", "Our flight to Lisbon leaves at 07:40.", "Our flight to Lisbon leaves at 11:05.",
     "When does our Lisbon flight leave?"),
    ("family", "My niece Lily's birthday party is on 14 March.", "My niece Lily's birthday party is on 21 March.",
     "When is Lily's party?"),
    ("friends", "Tom's flat is on Stokes Croft.", "Tom's flat is on Cheltenham Road now.", "Where is Tom's flat?"),
    ("health", "My dentist appointment is on 3 October.", "My dentist appointment is on 17 October.",
     "When is my dentist appointment?"),
    ("wellbeing", "I meditate for 10 minutes every morning.", "I meditate for 20 minutes every morning.",
     "How long do I meditate?"),
    ("home", "Our broadband is 67 Mbps with BT.", "Our broadband is 500 Mbps with BT.", "How fast is our broadband?"),
    ("diy", "The bathroom tiler is booked for 12 May.", "The bathroom tiler is booked for 26 May.",
     "When is the tiler coming?"),
    ("tech", "My phone is a Pixel 6.", "My phone is a Pixel 8.", "What phone do I have?"),
    ("coding", "My side project runs on Python 3.10.", "My side project runs on Python 3.12.",
     "Which Python does my side project use?"),
    ("photography", "My main lens is the 35 mm f/1.8.", "My main lens is the 50 mm f/1.8 now.",
     "What is my main lens?"),
    ("games", "Our board game night is every other Friday.", "Our board game night is every other Sunday.",
     "When is board game night?"),
    ("crafts", "The scarf I'm knitting is 90 cm long so far.", "The scarf I'm knitting is 140 cm long so far.",
     "How long is the scarf?"),
    ("drinks", "I drink about 4 coffees a day.", "I drink about 2 coffees a day.", "How many coffees do I drink?"),
    ("community", "The litter pick is on the first Saturday of the month.",
     "The litter pick is on the last Saturday of the month.", "When is the litter pick?"),
    ("collecting", "I've got 140 vinyl records.", "I've got 163 vinyl records.", "How many records do I have?"),
    ("writing", "My novel draft is at 42,000 words.", "My novel draft is at 58,000 words.",
     "How long is my draft?"),
    ("baking", "My sourdough starter is called Doughbi.", "My sourdough starter is called Bready Mercury.",
     "What is my starter called?"),
    ("cooking", "Our veg box comes on Wednesdays.", "Our veg box comes on Fridays.", "When does the veg box come?"),
    ("outdoors", "The campsite in the Brecon Beacons is booked for 3 nights.",
     "The campsite in the Brecon Beacons is booked for 5 nights.", "How long is the camping trip?"),
    ("screen", "Our streaming subscription is Netflix.", "Our streaming subscription is Disney+ now.",
     "Which streaming service do we have?"),
    ("shopping", "My budget for the new sofa is £900.", "My budget for the new sofa is £1,300.",
     "What is my sofa budget?"),
)  # fmt: skip


def restated_chains(seed: int) -> list[ChatChain]:
    """The chains, each turn wrapped in ordinary chat by a writer of its own seed."""
    writer = _Writer(random.Random(seed))
    return [
        ChatChain(
            predecessor=writer.embed(old, writer.topic(topic)),
            update=writer.embed(new, writer.topic(topic)),
            question=question,
        )
        for topic, old, new, question in RESTATED
    ]
