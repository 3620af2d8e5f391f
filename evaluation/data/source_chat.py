"""The ``chat`` source of labelled memory pairs for the hygiene judge.

What it is: statements a person tells a chat assistant about their own life, in the first person, as the
assistant would store them verbatim -- family and friends, health and medication, fitness, food, travel,
home and repairs, money, subscriptions, school and courses, hobbies, pets, cars, orders, work seen from home.
Every line is an OLDER statement ``a`` and a NEWER statement ``b`` by the same user with one relation
(duplicate, supersedes, complementary, contradicts, unrelated), labelled by the rules of LABELS.md and
SPEC section 6 (R-H7 "same subject or nothing", R-H8 "evidence for an automatic supersede").

How it was written: independently of the other sources. The vocabulary, the subjects, the sentence frames,
the update-cue wordings and the chatter below were written from scratch for this module, by hand, without
looking at any other source, the evaluation data or the judge's code. Facts are modelled as
subject / attribute / value: each attribute ("family") has its own plain, paraphrase, update-cue and
added-detail frames, yes/no attributes have affirmed / denied / cued frames, and open loops (tasks and open
questions) have their own frames. About 40% of statements are long chat turns in which the fact sits among
unrelated chatter that is drawn from a large hand-written and combinatorial pool with no update cues in it.
On top of the generated pairs, more than a hundred pairs are written out literally (``HAND``).

When a pair could be read two ways the label is the reading that retires less (complementary over
duplicate, contradicts over supersedes). Standard library only and deterministic: running

    python evaluation/data/source_chat.py

rewrites ``chat.jsonl`` beside this file (2,400 pairs, 480 per relation) and prints counts per frame.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

SEED = 52_614
SOURCE = "chat"
OUT_PATH = Path(__file__).resolve().parent / "chat.jsonl"
LONG_TURN_SHARE = 0.43

# --------------------------------------------------------------------------------------------------------------
# Subjects and rendering
# --------------------------------------------------------------------------------------------------------------

TOKEN_RE = re.compile(r"\{(\w+)\}")
AGREE_RE = re.compile(r"\[([^|\]]*)\|([^\]]*)\]")
PLURAL_PRONOUNS = ("I", "we", "they")


@dataclass(frozen=True)
class Subj:
    """A subject: its names (the first is its identity), its pronoun and an optional bare noun."""

    names: tuple[str, ...]
    pro: str
    noun: str = ""
    tag: str = ""

    @property
    def key(self) -> str:
        return self.names[0]

    @property
    def plural(self) -> bool:
        return self.pro in PLURAL_PRONOUNS


def subj(names: str, pro: str = "it", noun: str = "", tag: str = "") -> Subj:
    return Subj(tuple(names.split("|")), pro, noun, tag)


ME = subj("I", "I")
WE = subj("we", "we")

PRONOUN_FORMS: dict[str, tuple[str, str, str, str]] = {
    # pronoun: (object, possessive, pronoun + be, be)
    "I": ("me", "my", "I'm", "am"),
    "we": ("us", "our", "we're", "are"),
    "they": ("them", "their", "they're", "are"),
    "she": ("her", "her", "she's", "is"),
    "he": ("him", "his", "he's", "is"),
    "it": ("it", "its", "it's", "is"),
}


def _contractable(name: str) -> bool:
    return name[-1].isalpha() and name[-1] not in "sxzSXZ" and not name.endswith("+")


def subject_forms(s: Subj, name: str, rng: random.Random) -> dict[str, str]:
    """All the ways a template can refer to subject ``s`` called ``name`` in this statement."""
    obj, pposs, probe, be = PRONOUN_FORMS[s.pro]
    if s.pro in ("I", "we"):
        nom, objf, poss = name, obj, pposs
        sbe = probe
        sneg = "I'm not" if s.pro == "I" else rng.choice(("we're not", "we aren't"))
    else:
        nom, objf = name, name
        poss = name + "'s"
        if s.plural:
            sbe, sneg = name + " are", name + " aren't"
        else:
            contract = _contractable(name) and rng.random() < 0.45
            sbe = name + ("'s" if contract else " is")
            sneg = name + ("'s not" if contract and rng.random() < 0.3 else " isn't")
    return {
        "s": nom,
        "obj": objf,
        "poss": poss,
        "pro": s.pro,
        "pp": pposs,
        "probe": probe,
        "be": be,
        "sbe": sbe,
        "sneg": sneg,
        "n": s.noun,
    }


def render(tpl: str, s: Subj, rng: random.Random, **slots: str) -> str:
    """Fill a template: ``[plural|singular]`` verb agreement, then ``{slot}`` tokens."""
    name = rng.choice(s.names)
    forms = subject_forms(s, name, rng)
    forms.update(slots)
    text = AGREE_RE.sub(lambda m: m.group(1) if s.plural else m.group(2), tpl)
    return TOKEN_RE.sub(lambda m: forms[m.group(1)], text)


def surface(value: str, rng: random.Random, avoid: str = "") -> str:
    """One written form of a value (``"£850~850 quid"`` has two); prefer the first."""
    forms = value.split("~")
    if avoid:
        others = [f for f in forms if f != avoid]
        if others:
            return rng.choice(others)
    if len(forms) > 1 and rng.random() < 0.3:
        return rng.choice(forms[1:])
    return forms[0]


def canon(value: str) -> str:
    return value.partition("~")[0]


# --------------------------------------------------------------------------------------------------------------
# Subject pools
# --------------------------------------------------------------------------------------------------------------

ADULTS = (
    subj("my sister", "she"),
    subj("my brother", "he"),
    subj("my mum|mum", "she"),
    subj("my dad|dad", "he"),
    subj("my grandma|grandma", "she"),
    subj("my grandad|grandad", "he"),
    subj("my aunt Carol|aunt Carol", "she"),
    subj("my uncle Pete|uncle Pete", "he"),
    subj("my cousin Jess|Jess", "she"),
    subj("my best friend Maya|Maya", "she"),
    subj("my mate Callum|Callum", "he"),
    subj("my flatmate Dev|Dev", "he"),
    subj("my neighbour Mr Okafor|Mr Okafor", "he"),
    subj("my partner Chris|Chris", "he"),
    subj("my friend Tomasz|Tomasz", "he"),
    subj("my old housemate Priyanka|Priyanka", "she"),
    subj("my stepdad Gary|Gary", "he"),
    subj("my mother-in-law", "she"),
    subj("my friend Rosa|Rosa", "she"),
    subj("my brother-in-law Marcus|Marcus", "he"),
    subj("my sister-in-law Abi|Abi", "she"),
    subj("my godmother Sue|Sue", "she"),
)
KIDS = (
    subj("my son Leo|Leo", "he"),
    subj("my daughter Ava|Ava", "she"),
    subj("my nephew Sam|Sam", "he"),
    subj("my niece Isla|Isla", "she"),
    subj("my stepson Kai|Kai", "he"),
    subj("my goddaughter Ruby|Ruby", "she"),
)
GROWNUPS = (ME, *ADULTS)
EVERYONE = (ME, *ADULTS, *KIDS)
SOME_ADULTS = (ME, *ADULTS[:4], ADULTS[8], ADULTS[9], ADULTS[11], ADULTS[13], ADULTS[18], ADULTS[20])

DOGS = (
    subj("our dog Biscuit|Biscuit", "he", tag="dog"),
    subj("our puppy Otis|Otis", "he", tag="dog"),
    subj("mum's dog Bruno|Bruno", "he", tag="dog"),
    subj("Maya's dog Pepper|Pepper", "she", tag="dog"),
)
CATS = (
    subj("our cat Miso|Miso", "she", tag="cat"),
    subj("my sister's cat Luna|Luna", "she", tag="cat"),
    subj("our other cat Tofu|Tofu", "he", tag="cat"),
)
SMALL_PETS = (
    subj("our rabbit Clover|Clover", "she", tag="small"),
    subj("the hamster Pip|Pip", "he", tag="small"),
    subj("Ava's guinea pig Nugget|Nugget", "he", tag="small"),
    subj("our tortoise Sheldon|Sheldon", "he", tag="small"),
)
PETS = (*DOGS, *CATS, *SMALL_PETS)

MED_NAMES = (
    "sertraline",
    "propranolol",
    "citalopram",
    "omeprazole",
    "amitriptyline",
    "levothyroxine",
    "ramipril",
    "metformin",
    "amlodipine",
    "vitamin D",
    "lansoprazole",
    "atorvastatin",
)
MEDS = tuple(subj(m, "it", tag=m) for m in MED_NAMES)
MED_DOSES: dict[str, tuple[str, ...]] = {
    "sertraline": ("50mg", "100mg", "150mg", "200mg"),
    "propranolol": ("10mg", "20mg", "40mg", "80mg"),
    "citalopram": ("10mg", "20mg", "30mg", "40mg"),
    "omeprazole": ("10mg", "20mg", "40mg"),
    "amitriptyline": ("10mg", "20mg", "30mg", "50mg"),
    "levothyroxine": ("50mcg", "75mcg", "100mcg", "125mcg"),
    "ramipril": ("2.5mg", "5mg", "10mg"),
    "metformin": ("500mg", "1,000mg~1000mg", "1,500mg"),
    "amlodipine": ("5mg", "10mg"),
    "vitamin D": ("1,000 IU~1000 units", "2,000 IU~2000 units", "4,000 IU"),
    "lansoprazole": ("15mg", "30mg"),
    "atorvastatin": ("10mg", "20mg", "40mg", "80mg"),
}

CARS = (
    subj("my Corsa|the Corsa", "it"),
    subj("our van|the van", "it"),
    subj("Chris's Golf|the Golf", "it"),
    subj("my motorbike|the motorbike", "it"),
    subj("mum's Fiesta|the Fiesta", "it"),
    subj("the camper van|the camper", "it"),
)
APPLIANCES = (
    subj("the boiler", noun="boiler"),
    subj("the dishwasher", noun="dishwasher"),
    subj("the washing machine", noun="washing machine"),
    subj("the fridge freezer|the fridge", noun="fridge freezer"),
    subj("the oven", noun="oven"),
    subj("the tumble dryer|the dryer", noun="tumble dryer"),
    subj("the kitchen tap", noun="tap"),
    subj("the shower", noun="shower"),
    subj("the garage door", noun="garage door"),
    subj("the doorbell camera", noun="doorbell"),
    subj("the extractor fan", noun="extractor fan"),
    subj("the hoover", noun="hoover"),
)
BRANDED = APPLIANCES[:6] + APPLIANCES[11:]
ROOMS = (
    subj("the living room|the lounge"),
    subj("the spare room"),
    subj("the hallway|the hall"),
    subj("the kitchen"),
    subj("the downstairs loo"),
    subj("Leo's bedroom"),
    subj("our bedroom"),
    subj("the nursery"),
    subj("the landing"),
    subj("the dining room"),
)
HOUSEHOLDS = (
    WE,
    subj("mum and dad", "they"),
    subj("my sister", "she"),
    subj("my brother", "he"),
    subj("my grandma|grandma", "she"),
    subj("my cousin Jess|Jess", "she"),
)
BINS = (
    subj("the recycling", noun="recycling"),
    subj("the general waste|the black bin", noun="black bin"),
    subj("the garden waste", noun="garden waste"),
    subj("the food waste", noun="food waste"),
    subj("the glass recycling", noun="glass"),
)
SERVICES = (
    subj("Netflix"),
    subj("Spotify"),
    subj("Disney+"),
    subj("Amazon Prime|Prime"),
    subj("Audible"),
    subj("Xbox Game Pass|Game Pass"),
    subj("YouTube Premium"),
    subj("Apple Music"),
    subj("iCloud storage|iCloud"),
    subj("HelloFresh"),
    subj("Duolingo"),
    subj("the Peloton app"),
    subj("my gym membership|the gym"),
    subj("the Times app"),
)
STREAMING = SERVICES[:8]
DEBITS = (
    subj("the rent"),
    subj("the council tax"),
    subj("the mortgage"),
    subj("the credit card"),
    subj("the water bill"),
    subj("the TV licence"),
    subj("the life insurance"),
    subj("the childminder payment"),
)
ACCOUNTS = (
    subj("my current account"),
    subj("the joint account"),
    subj("my savings account"),
    subj("my ISA|the ISA"),
    subj("the kids' savings account"),
    subj("my business account"),
)
BUDGETS = (
    subj("my grocery budget|the grocery budget"),
    subj("my eating-out budget"),
    subj("my clothes budget"),
    subj("the kids' activities budget"),
    subj("my fun money"),
    subj("the petrol budget"),
    subj("our Christmas budget"),
)
SAVINGS = (
    subj("the house deposit"),
    subj("the wedding fund"),
    subj("the car fund"),
    subj("the Japan trip fund"),
    subj("the emergency fund"),
)
TRIPS = (
    subj("our summer holiday|the summer holiday"),
    subj("the family camping trip|the camping trip"),
    subj("the girls' weekend"),
    subj("our anniversary trip"),
    subj("Callum's stag do|the stag do"),
    subj("our city break"),
    subj("my work trip"),
)
JOURNEYS = (
    subj("my flight to Lisbon|the Lisbon flight"),
    subj("my flight home from Crete|the flight back from Crete"),
    subj("the train to Edinburgh|the Edinburgh train"),
    subj("our flight to Malaga|the Malaga flight"),
    subj("my flight to Berlin|the Berlin flight"),
    subj("the coach to Gatwick"),
    subj("the ferry to Santander"),
    subj("the Eurostar to Paris|the Eurostar"),
)
HOTELS = (
    subj("the hotel in Rome"),
    subj("our Airbnb in Porto|the Porto Airbnb"),
    subj("the cottage in Cornwall|the Cornwall cottage"),
    subj("the B&B in York|the York B&B"),
    subj("the apartment in Barcelona"),
    subj("the guesthouse in Whitby"),
)
APPTS = (
    subj("my dentist appointment|the dentist"),
    subj("my physio appointment|physio"),
    subj("my blood test"),
    subj("my GP appointment"),
    subj("my eye test"),
    subj("Leo's hearing test"),
    subj("my haircut"),
    subj("Dad's hip op|dad's operation"),
    subj("mum's scan"),
    subj("the mortgage appointment"),
    subj("parents' evening"),
    subj("my flu jab"),
)
APPTS_CLINICAL = tuple(a for a in APPTS if a.key not in ("my haircut", "the mortgage appointment", "parents' evening"))
EVENTS = (
    subj("mum's 60th|mum's party"),
    subj("Leo's birthday party"),
    subj("the family BBQ|the BBQ"),
    subj("Maya's wedding"),
    subj("the christening"),
    subj("the school reunion"),
    subj("Dad's retirement do"),
    subj("the street party"),
    subj("our housewarming"),
    subj("Hannah's leaving do"),
    subj("Jess's hen do"),
    subj("grandad's 80th"),
)
ACTIVITIES = (
    subj("my Spanish class"),
    subj("the pottery course"),
    subj("Leo's swimming lessons", "they"),
    subj("Ava's piano lessons", "they"),
    subj("my driving lessons", "they"),
    subj("book club"),
    subj("choir"),
    subj("five-a-side"),
    subj("the running club"),
    subj("our D&D group|D&D"),
    subj("the knitting group"),
    subj("the pub quiz"),
    subj("Ava's ballet"),
    subj("Leo's football training"),
)
TAUGHT_WORDS = ("class", "course", "lessons", "choir", "ballet", "training")
ACT_TAUGHT = tuple(a for a in ACTIVITIES if a.key.split()[-1] in TAUGHT_WORDS)
ACT_PAID = tuple(
    a for a in ACTIVITIES if a.key not in ("my driving lessons", "book club", "our D&D group", "the pub quiz")
)
EXAMS = (
    subj("my driving theory test|my theory test"),
    subj("Ava's grade 3 piano exam|Ava's piano exam"),
    subj("Leo's 11-plus"),
    subj("my OU exam"),
    subj("my driving test"),
    subj("the first aid assessment"),
    subj("my Spanish oral exam"),
)
ORDERS = (
    subj("the running shoes I ordered|the running shoes", "they"),
    subj("the IKEA wardrobe|the wardrobe"),
    subj("the laptop I ordered"),
    subj("Ava's school uniform order|the uniform order"),
    subj("the kettle I ordered"),
    subj("the sofa from DFS"),
    subj("the plant pots from Etsy", "they"),
    subj("the phone charger I ordered"),
    subj("the garden furniture"),
    subj("the bike I ordered for Leo"),
)
DOCS = (
    subj("my passport"),
    subj("Ava's passport"),
    subj("my driving licence"),
    subj("my railcard"),
    subj("Chris's passport"),
    subj("my GHIC card"),
    subj("Leo's passport"),
)
PHONES = (
    subj("my phone"),
    subj("Ava's phone"),
    subj("Chris's phone"),
    subj("mum's phone"),
)

# --------------------------------------------------------------------------------------------------------------
# Value pools
# --------------------------------------------------------------------------------------------------------------

CITIES = (
    "Leeds",
    "York",
    "Bristol",
    "Glasgow",
    "Cardiff",
    "Norwich",
    "Brighton",
    "Manchester",
    "Sheffield",
    "Newcastle",
    "Nottingham",
    "Exeter",
    "Liverpool",
    "Dundee",
    "Plymouth",
    "Oxford",
    "Swansea",
    "Belfast",
    "Dublin",
    "Derby",
)
BIRTHDAYS = (
    "the 3rd of March~3 March~March 3rd",
    "the 9th of June~9 June~June 9th",
    "the 19th of June~19 June",
    "the 22nd of November~22 November~November 22nd",
    "the 5th of January~5 January",
    "the 17th of August~17 August",
    "the 28th of February~28 Feb",
    "the 11th of October~11 October",
    "the 30th of April~30 April",
)
DATES = (
    "Saturday the 14th~Saturday 14th",
    "Sunday the 15th~Sunday 15th",
    "the 3rd of May~3 May~May 3rd",
    "the 21st of June~21 June~June 21st",
    "Friday the 9th~Friday 9th",
    "the 30th of August~30 August",
    "the 12th of October~12 October~October 12th",
    "the 1st of December~1 December",
    "the 19th of March~19 March",
)
APPT_WHEN = (
    "Tuesday at 10:30~Tuesday, half ten",
    "Thursday at 2:15~Thursday, quarter past two",
    "Monday at 9am~Monday, nine in the morning",
    "Friday at 4pm~Friday, four o'clock",
    "Wednesday at 8:50am",
    "the 12th at 11:40",
    "the 3rd at 1:20pm",
    "Saturday at 9:15~Saturday, quarter past nine",
)
DAYS_REC = (
    "Mondays and Thursdays",
    "Tuesdays",
    "Wednesday evenings",
    "Saturday mornings",
    "Sunday afternoons",
    "Friday mornings",
)
OFFICE_DAYS = (
    "Mondays and Thursdays",
    "Tuesdays and Wednesdays",
    "Fridays",
    "Mondays and Wednesdays",
    "Tuesdays and Thursdays",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
ONE_OFF_DAYS = (
    "Monday",
    "Tuesday morning",
    "Wednesday",
    "Thursday afternoon",
    "Friday",
    "Saturday morning",
)
MONTHS = ("January", "March", "April", "June", "August", "September", "November")
TIMES_MORNING = ("7:30am~half seven", "8am~eight", "8:30am~half eight", "9am~nine", "9:30am~half nine", "10am~ten")
TIMES_EVENING = ("7pm~seven", "7:30pm~half seven", "8pm~eight", "8:30pm~half eight", "9pm~nine")
DEPARTURES = (
    "6:40am~twenty to seven in the morning",
    "7:10am~ten past seven in the morning",
    "9:35am~twenty-five to ten in the morning",
    "11:20am",
    "1:15pm~quarter past one",
    "4:50pm~ten to five",
    "6:05pm~five past six in the evening",
    "8:45pm~quarter to nine at night",
)
SCHOOL_ENDS = ("3pm~three o'clock", "3:15pm~quarter past three", "3:20pm~twenty past three", "3:30pm~half three")
CHECKINS = ("2pm~two in the afternoon", "3pm~three o'clock", "4pm~four o'clock", "midday~12 noon", "5pm")
MILKS = ("oat milk", "soy milk", "almond milk", "semi-skimmed", "a splash of whole milk", "no milk at all")
COLOURS = (
    "sage green",
    "navy",
    "off-white",
    "terracotta",
    "pale grey",
    "mustard yellow",
    "dusky pink",
    "forest green",
    "duck egg blue",
)
PROVIDERS = ("BT", "Virgin Media", "Sky", "Plusnet", "Vodafone", "TalkTalk", "Hyperoptic")
TV_PROVIDERS = ("BT", "Virgin Media", "Sky", "Freeview", "Vodafone")
SUPPLIERS = ("Octopus", "British Gas", "EDF", "OVO", "E.ON", "Scottish Power")
BANKS = ("Monzo", "Nationwide", "Barclays", "Starling", "HSBC", "Santander", "Lloyds", "First Direct")
INSURERS = ("Admiral", "Direct Line", "Aviva", "LV", "Churchill", "Hastings")
NETWORKS = ("EE", "Three", "O2", "Vodafone", "giffgaff", "Tesco Mobile")
COURIERS = ("DPD", "Evri", "Royal Mail", "DHL", "Yodel", "Parcelforce")
MONEY_RENT = ("£680", "£750~750 quid", "£850~850 quid", "£925", "£1,100~1100 quid", "£1,250", "£1,400")
MONEY_BILL = ("£85~85 quid", "£95", "£110", "£120~120 quid", "£140", "£160", "£180")
MONEY_SUB = ("£4.99", "£5.99", "£7.99", "£8.99", "£10.99", "£11.99", "£14.99", "£18.99", "£24", "£32", "£39")
MONEY_BUDGET = ("£50~50 quid", "£80", "£100~a hundred quid", "£150", "£200~200 quid", "£250", "£300", "£400")
MONEY_BIG = ("£2,000~two grand", "£3,500", "£5,000~five grand", "£8,000", "£12,000", "£20,000~twenty grand", "£25,000")
MONEY_TERM = ("£45", "£60", "£75", "£90", "£120", "£150")
MONEY_NIGHT = ("£75", "£85", "£95", "£120", "£140", "£160")
MONEY_POCKET = ("£2~two quid", "£3", "£5~a fiver", "£7.50", "£10~a tenner")
SALARIES = ("£28,000~28k", "£32,500", "£35,000~35k", "£41,000~41k", "£46,000", "£52,000~52k")
TEAMS = (
    "Arsenal",
    "Spurs",
    "Leeds United",
    "Celtic",
    "Liverpool",
    "Man City",
    "Newcastle",
    "Aston Villa",
    "Everton",
    "Bristol City",
)
EMPLOYERS = (
    "a bakery",
    "Tesco",
    "the hospital",
    "the council",
    "a law firm",
    "a primary school",
    "the Amazon warehouse",
    "the uni",
    "a vet's",
    "an architecture firm",
    "the BBC",
    "a garden centre",
)
JOBS = (
    "a nurse",
    "a teacher",
    "an electrician",
    "an accountant",
    "a paramedic",
    "a chef",
    "a graphic designer",
    "a solicitor",
    "a physio",
    "a bus driver",
    "a social worker",
    "a pharmacist",
)
GIFTS = (
    "a watch",
    "a cookbook",
    "a candle set",
    "concert tickets",
    "a pair of slippers",
    "a Lego set",
    "a photo book",
    "a spa voucher",
    "a jigsaw",
    "a dressing gown",
    "a house plant",
    "a nice bottle of gin",
)
SCHOOLS = (
    "St Mary's Primary",
    "Oakfield Academy",
    "Hillside Primary",
    "the grammar school",
    "Westbrook High",
    "Greenfield Juniors",
)
SHOE_SIZES = ("10", "11", "12", "13", "1", "2", "3")
STEP_GOALS = ("6,000~6k", "8,000~8k", "10,000~10k~ten thousand", "12,000~12k", "15,000~15k")
RACES = (
    "a 5k",
    "a 10k",
    "a half marathon",
    "the London Marathon",
    "a sprint triathlon",
    "an ultramarathon",
    "a 100-mile bike ride",
)
COFFEES = ("one coffee~a single coffee", "two coffees", "three coffees", "four coffees", "five coffees")
GOAL_WEIGHTS = ("60kg~60 kilos", "65kg", "70kg~70 kilos", "75kg", "80kg~80 kilos", "85kg")
COMMUTES = ("by train", "by bus", "by bike", "by car", "on foot", "by tram")
MANAGERS = ("Rachel", "Omar", "Siobhan", "Kev", "Priti", "Marek", "Dawn", "Femi")
LEAVE_DAYS = ("3", "5", "8", "10", "12", "14", "17")
SEATS_PREF = ("an aisle seat", "a window seat", "a seat near the front", "an exit row seat")
MED_TIMES = ("first thing in the morning", "at lunchtime", "with my evening meal", "at bedtime", "mid-afternoon")
CLINICS = (
    "the surgery on Park Road",
    "the hospital",
    "the health centre in town",
    "the clinic by the retail park",
    "the walk-in centre on the ring road",
    "the practice on Church Street",
)
BRANDS = ("Bosch", "Samsung", "Beko", "Hotpoint", "Whirlpool", "Miele", "Zanussi", "Hisense")
PLANS = ("basic", "standard", "premium", "family", "student", "ad-supported")
DAYS_OF_MONTH = ("the 1st", "the 5th", "the 15th", "the 20th", "the 28th", "the last working day")
DESTINATIONS = (
    "Lisbon",
    "Crete",
    "the Lake District",
    "Cornwall",
    "Barcelona",
    "Edinburgh",
    "Menorca",
    "Amsterdam",
    "Pembrokeshire",
    "Lake Garda",
)
TRIP_DATES = (
    "the 12th to the 19th of July",
    "the first week of August",
    "the 8th to the 15th of August",
    "the 3rd to the 6th of May",
    "the last weekend of September",
    "the second week of October",
    "the 20th to the 27th of June",
)
SEAT_NUMBERS = ("14C", "22A", "3F", "31B", "9D", "17A")
VENUES = (
    "the Red Lion",
    "our house",
    "the village hall",
    "the golf club",
    "a barn in Somerset",
    "the cricket club",
    "Nando's",
    "a marquee at the rugby club",
    "the community centre",
)
GUESTS = ("20", "25", "30", "40", "55", "60", "80")
ACT_DAYS = (
    "Tuesday evenings",
    "Wednesdays",
    "Thursday nights",
    "Saturday mornings",
    "Monday after school",
    "Friday afternoons",
    "Sunday mornings",
)
TEACHERS = ("Mrs Hughes", "Mr Adeyemi", "Carmen", "Gareth", "Miss Li", "Coach Dan", "Mrs Kowalski")
PET_FOODS = (
    "Lily's Kitchen",
    "Royal Canin",
    "Harringtons",
    "Burns",
    "a raw diet",
    "Butternut Box",
    "Purina",
    "the Pets at Home own brand",
)
DOG_WEIGHTS = ("9kg", "12kg", "14kg", "16kg", "18kg", "22kg")
CAT_WEIGHTS = ("3.5kg", "4kg", "4.5kg", "5kg", "5.5kg")
SITTERS = ("Gemma", "Josh", "Mrs Bell", "Ellie", "Tariq", "Nadia")
EXPIRIES = ("March 2026", "October 2027", "June 2026", "January 2029", "August 2026", "May 2030")

# --------------------------------------------------------------------------------------------------------------
# Attribute families
# --------------------------------------------------------------------------------------------------------------
# Styles decide which generic update wrappers fit: "state" (a standing fact), "recur" (a routine, a price, a
# dose set by someone else), "self" (a routine or amount the person sets themselves), "measure" (a measurement
# such as a weight or a shoe size), "event" (a one-off date or time), "plan" (something we intend), "pref" (a
# preference), "fixed" (a fact that cannot change, so only a correction updates it).


@dataclass(frozen=True)
class Fam:
    key: str
    domain: str
    pool: tuple[Subj, ...]
    values: tuple[str, ...]
    vtype: str
    style: str
    kind: str
    state: tuple[str, ...]
    para: tuple[str, ...]
    cue: tuple[str, ...]
    detail: tuple[str, ...]
    quest: tuple[str, ...] = ()

    def values_for(self, s: Subj) -> tuple[str, ...]:
        if self.key == "med.dose":
            return MED_DOSES[s.tag]
        if self.key == "pet.weight":
            return DOG_WEIGHTS if s.tag == "dog" else CAT_WEIGHTS
        return self.values


def fam(
    key: str,
    domain: str,
    pool: Sequence[Subj],
    values: Sequence[str],
    vtype: str,
    style: str,
    kind: str,
    *,
    state: Sequence[str],
    para: Sequence[str],
    cue: Sequence[str],
    detail: Sequence[str],
    quest: Sequence[str] = (),
) -> Fam:
    return Fam(
        key,
        domain,
        tuple(pool),
        tuple(values),
        vtype,
        style,
        kind,
        tuple(state),
        tuple(para),
        tuple(cue),
        tuple(detail),
        tuple(quest),
    )


FAMILIES: tuple[Fam, ...] = (
    fam(
        "person.city",
        "people",
        GROWNUPS,
        CITIES,
        "city",
        "state",
        "fact",
        state=("{s} [live|lives] in {v}", "{sbe} living in {v}", "{poss} place is in {v}"),
        para=(
            "{poss} home is in {v}",
            "{s} [call|calls] {v} home",
            "{sbe} based in {v}",
            "{v} is where {s} [live|lives]",
        ),
        cue=(
            "{s} moved to {v}",
            "{s} moved from {o} to {v}",
            "{s} just moved to {v}",
            "{s} relocated to {v} last month",
            "{s} used to live in {o}, but {probe} in {v} now",
            "{s} left {o} and [live|lives] in {v} now",
        ),
        detail=(
            "{s} [live|lives] in {v}, in a little terraced house near the park",
            "{s} [live|lives] in {v}, about ten minutes from the station",
            "{s} [live|lives] in {v} in a second-floor flat with no lift",
            "{sbe} living in {v}, right by a really good chippy",
        ),
    ),
    fam(
        "person.work_city",
        "people",
        GROWNUPS,
        CITIES,
        "city",
        "state",
        "fact",
        state=("{s} [work|works] in {v}", "{poss} job is in {v}", "{poss} office is in {v}"),
        para=(
            "{s} [commute|commutes] into {v} for work",
            "{v} is where {s} [work|works]",
            "{s} [work|works] out of {v}",
        ),
        cue=(
            "{poss} job moved to {v}",
            "{s} got transferred to {v}",
            "{poss} office relocated from {o} to {v}",
            "{s} [work|works] in {v} these days, not {o}",
        ),
        detail=(
            "{s} [work|works] in {v}, right in the centre",
            "{s} [work|works] in {v}, in one of those glass office blocks",
            "{poss} job is in {v}, on an industrial estate just outside",
        ),
    ),
    fam(
        "person.hometown",
        "people",
        GROWNUPS,
        CITIES,
        "city",
        "fixed",
        "fact",
        state=("{s} grew up in {v}", "{sbe} originally from {v}"),
        para=("{v} is where {s} grew up", "{s} [was|was] brought up in {v}", "{s} spent {pp} whole childhood in {v}"),
        cue=(
            "oops, {s} grew up in {v}, not {o}",
            "I had it wrong, {sbe} from {v} originally, not {o}",
            "turns out {s} grew up in {v}, I always thought it was {o}",
        ),
        detail=(
            "{s} grew up in {v}, on a farm just outside",
            "{sbe} originally from {v} and still [have|has] the accent",
            "{s} grew up in {v}, the youngest of four",
        ),
    ),
    fam(
        "person.employer",
        "people",
        ADULTS,
        EMPLOYERS,
        "employer",
        "state",
        "fact",
        state=("{s} [work|works] at {v}", "{poss} job is at {v}"),
        para=("{s} [have|has] a job at {v}", "{v} is where {s} [work|works]", "{s} [earn|earns] {pp} money at {v}"),
        cue=(
            "{s} [have|has] a new job at {v}",
            "{s} left {o} and [work|works] at {v} now",
            "{s} switched jobs, {probe} at {v} now",
            "{s} got a job at {v}, so no more {o}",
        ),
        detail=(
            "{s} [work|works] at {v}, mostly nights",
            "{s} [work|works] at {v}, in the finance side of things",
            "{s} [work|works] at {v} and [love|loves] it",
        ),
    ),
    fam(
        "person.job",
        "people",
        GROWNUPS,
        JOBS,
        "job",
        "state",
        "fact",
        state=("{sbe} {v}", "{s} [work|works] as {v}"),
        para=("{poss} job is being {v}", "{s} [earn|earns] a living as {v}", "by trade {sbe} {v}"),
        cue=(
            "{s} retrained as {v}",
            "{sbe} {v} now",
            "{s} went from being {o} to being {v}",
            "{s} gave up being {o}, {probe} {v} now",
        ),
        detail=(
            "{sbe} {v}, been doing it for about ten years",
            "{sbe} {v} and [do|does] a lot of weekend shifts",
            "{s} [work|works] as {v}, part-time",
        ),
    ),
    fam(
        "person.birthday",
        "people",
        EVERYONE,
        BIRTHDAYS,
        "date",
        "fixed",
        "fact",
        state=("{poss} birthday is on {v}", "{poss} birthday is {v}"),
        para=("{v} is {poss} birthday", "{s} [was|was] born on {v}", "{poss} big day is {v} every year"),
        cue=(
            "oops, {poss} birthday is {v}, not {o}",
            "got {poss} birthday wrong, it's {v}",
            "I misremembered, {poss} birthday is on {v}",
        ),
        detail=(
            "{poss} birthday is on {v}, and {probe} always up for a curry",
            "{poss} birthday is {v}, {pro} [like|likes] a low-key one",
            "{poss} birthday is on {v}, a milestone one this year",
        ),
    ),
    fam(
        "person.anniversary",
        "people",
        SOME_ADULTS,
        BIRTHDAYS,
        "date",
        "fixed",
        "fact",
        state=("{poss} wedding anniversary is {v}", "{poss} anniversary is on {v}"),
        para=("{s} got married on {v}", "{v} is {poss} wedding anniversary"),
        cue=("correction, {poss} anniversary is {v}, not {o}", "turns out {poss} anniversary is {v}"),
        detail=(
            "{poss} wedding anniversary is {v}, their tenth this year",
            "{poss} anniversary is on {v}, they always go back to the same restaurant",
        ),
    ),
    fam(
        "person.gift",
        "people",
        (*ADULTS, *KIDS),
        GIFTS,
        "gift",
        "plan",
        "plan",
        state=("I'm getting {obj} {v} for {pp} birthday", "{poss} birthday present is going to be {v}"),
        para=("the plan for {poss} birthday is {v}", "I'll get {obj} {v} for {pp} birthday", "{v} for {obj} this year"),
        cue=(
            "I'm getting {obj} {v} for {pp} birthday instead",
            "I'm getting {obj} {v} instead of {o}",
            "I went off the idea of {o}, {poss} present is {v}",
            "ended up ordering {v} for {obj}",
        ),
        detail=(
            "I'm getting {obj} {v} for {pp} birthday, from that shop by the station",
            "I'm getting {obj} {v} for {pp} birthday and wrapping it in the fancy paper",
            "{poss} birthday present is going to be {v}, with a card from the kids",
        ),
        quest=(
            "what should I get {obj} for {pp} birthday, {a1} or {a2}?||whether to get {obj} {a1} or {a2}",
            "any thoughts on a present for {obj}? torn between {a1} and {a2}||what to get {obj}",
        ),
    ),
    fam(
        "person.team",
        "people",
        EVERYONE,
        TEAMS,
        "team",
        "state",
        "fact",
        state=("{s} [support|supports] {v}", "{sbe} a {v} fan"),
        para=("{s} [follow|follows] {v}", "{v} is {poss} team"),
        cue=("{s} [support|supports] {v} now, the traitor", "{s} switched from {o} to {v}", "{sbe} a {v} fan now"),
        detail=("{s} [support|supports] {v} and [have|has] a season ticket", "{sbe} a {v} fan, never misses a game"),
    ),
    fam(
        "kid.school",
        "kids",
        KIDS,
        SCHOOLS,
        "school",
        "state",
        "fact",
        state=("{s} [go|goes] to {v}", "{sbe} at {v}"),
        para=("{poss} school is {v}", "{s} [attend|attends] {v}"),
        cue=(
            "{s} moved schools, {probe} at {v} now",
            "{sbe} at {v} now",
            "{s} left {o} and [go|goes] to {v} now",
        ),
        detail=("{s} [go|goes] to {v}, a ten minute walk away", "{sbe} at {v} and [love|loves] {pp} teacher"),
    ),
    fam(
        "kid.shoes",
        "kids",
        KIDS,
        SHOE_SIZES,
        "size",
        "measure",
        "fact",
        state=("{sbe} a size {v} in shoes", "{s} [take|takes] a size {v} shoe", "{poss} shoe size is {v}"),
        para=("{s} [need|needs] size {v} shoes", "size {v} fits {obj}"),
        cue=(
            "+|{sbe} a size {v} now, growing like a weed",
            "+|{poss} feet went up from a {o} to a {v}",
            "+|{s} [have|has] gone up to a size {v}",
            "{sbe} a size {v} now",
        ),
        detail=("{sbe} a size {v} in shoes, wide fit", "{s} [take|takes] a size {v} shoe, Velcro only please"),
    ),
    fam(
        "kid.bedtime",
        "kids",
        KIDS,
        TIMES_EVENING,
        "time_eve",
        "self",
        "fact",
        state=("{poss} bedtime is {v}", "{s} [go|goes] to bed at {v}"),
        para=("lights out for {obj} is {v}", "{sbe} in bed by {v} on school nights"),
        cue=(
            "we've moved {poss} bedtime to {v}",
            "{poss} bedtime went from {o} to {v}",
            "{s} [go|goes] to bed at {v} now",
        ),
        detail=("{poss} bedtime is {v}, after a story", "{s} [go|goes] to bed at {v}, bath first"),
    ),
    fam(
        "kid.pocket",
        "kids",
        KIDS,
        MONEY_POCKET,
        "money_pocket",
        "self",
        "fact",
        state=("{s} [get|gets] {v} pocket money a week", "{poss} pocket money is {v} a week"),
        para=("we give {obj} {v} a week", "{v} a week is what {s} [get|gets] in pocket money"),
        cue=(
            "+|{poss} pocket money went up to {v} a week",
            "{s} [get|gets] {v} a week now",
            "+|we've bumped {poss} pocket money from {o} to {v}",
            "-|we've cut {poss} pocket money to {v} a week",
        ),
        detail=(
            "{s} [get|gets] {v} pocket money a week, paid on Saturdays",
            "{s} [get|gets] {v} a week, but only if {pro} [empty|empties] the dishwasher",
        ),
    ),
    fam(
        "kid.pickup",
        "kids",
        KIDS,
        SCHOOL_ENDS,
        "time_school",
        "recur",
        "fact",
        state=("{s} [finish|finishes] school at {v}", "{poss} pick-up is at {v}"),
        para=("I collect {obj} from school at {v}", "school's out for {obj} at {v}"),
        cue=(
            "{poss} pick-up time has changed to {v}",
            "{s} [finish|finishes] at {v} now",
            "the school moved {poss} finish time from {o} to {v}",
        ),
        detail=(
            "{s} [finish|finishes] school at {v}, pick-up is at the side gate",
            "{poss} pick-up is at {v}, bring a snack",
        ),
        quest=("what time does {s} finish on a Friday?||what time {s} [finish|finishes] on a Friday",),
    ),
)

FAMILIES_ME: tuple[Fam, ...] = (
    fam(
        "me.gym",
        "fitness",
        SOME_ADULTS,
        DAYS_REC,
        "days",
        "self",
        "fact",
        state=("{s} [go|goes] to the gym on {v}", "{poss} gym days are {v}"),
        para=("{v} are gym days for {obj}", "you'll find {obj} at the gym on {v}", "{s} [hit|hits] the gym {v}"),
        cue=(
            "{s} [go|goes] to the gym on {v} now",
            "{s} switched {poss} gym days to {v}",
            "{poss} gym days have moved from {o} to {v}",
        ),
        detail=(
            "{s} [go|goes] to the gym on {v}, mostly weights and a bit of cardio",
            "{s} [go|goes] to the gym on {v} before work",
            "{poss} gym days are {v}, usually about an hour",
        ),
    ),
    fam(
        "me.swim",
        "fitness",
        SOME_ADULTS,
        DAYS_REC,
        "days",
        "self",
        "fact",
        state=("{s} [go|goes] swimming on {v}", "{poss} swim days are {v}"),
        para=("{v} are for swimming, for {obj}", "{s} [do|does] {pp} lengths on {v}"),
        cue=("{s} [swim|swims] on {v} now", "{s} moved {poss} swims to {v}", "{poss} swims went from {o} to {v}"),
        detail=(
            "{s} [go|goes] swimming on {v}, about forty lengths",
            "{s} [go|goes] swimming on {v} at the leisure centre",
        ),
    ),
    fam(
        "me.yoga",
        "fitness",
        SOME_ADULTS,
        DAYS_REC,
        "days",
        "self",
        "fact",
        state=("{s} [do|does] yoga on {v}", "{poss} yoga class is on {v}"),
        para=("{v} mean yoga for {obj}", "{s} [roll|rolls] the yoga mat out on {v}"),
        cue=(
            "{poss} yoga class moved to {v}",
            "{s} [do|does] yoga on {v} now",
            "yoga for {obj} switched from {o} to {v}",
        ),
        detail=("{s} [do|does] yoga on {v}, the slow stretchy kind", "{s} [do|does] yoga on {v} at the church hall"),
    ),
    fam(
        "me.office",
        "work",
        SOME_ADULTS,
        OFFICE_DAYS,
        "days",
        "recur",
        "fact",
        state=("{sbe} in the office on {v}", "{poss} office days are {v}"),
        para=("{s} [go|goes] into work on {v}", "{v} are office days for {obj}"),
        cue=(
            "{poss} office days changed to {v}",
            "{sbe} in the office on {v} now",
            "{poss} office days went from {o} to {v}",
        ),
        detail=(
            "{sbe} in the office on {v}, hot-desking on the third floor",
            "{sbe} in the office on {v} and at home the rest of the week",
        ),
    ),
    fam(
        "me.steps",
        "fitness",
        SOME_ADULTS,
        STEP_GOALS,
        "steps",
        "self",
        "fact",
        state=("{poss} daily step goal is {v}", "{sbe} aiming for {v} steps a day"),
        para=("{v} steps a day is the target for {obj}", "{s} [try|tries] to hit {v} steps every day"),
        cue=(
            "+|{s} bumped {poss} step goal up to {v}",
            "{poss} step goal is {v} now",
            "-|{s} dropped {poss} step goal from {o} to {v}",
        ),
        detail=(
            "{poss} daily step goal is {v}, tracked on {pp} watch",
            "{sbe} aiming for {v} steps a day, mostly walking",
        ),
    ),
    fam(
        "me.training",
        "fitness",
        SOME_ADULTS,
        RACES,
        "race",
        "plan",
        "plan",
        state=("{sbe} training for {v}", "{poss} big goal this year is {v}"),
        para=("{v} is what {sbe} training for", "all {poss} training is building up to {v}"),
        cue=(
            "{sbe} training for {v} instead",
            "{s} switched from {o} to {v}",
            "{sbe} not doing {o} anymore, {probe} training for {v}",
        ),
        detail=(
            "{sbe} training for {v}, three sessions a week",
            "{sbe} training for {v} with a plan off an app",
            "{sbe} training for {v} in October",
        ),
    ),
    fam(
        "me.coffee",
        "food",
        SOME_ADULTS,
        COFFEES,
        "coffees",
        "self",
        "fact",
        state=("{s} [have|has] {v} a day", "{s} [drink|drinks] about {v} a day"),
        para=("{v} a day is {poss} usual", "{poss} coffee habit is {v} a day"),
        cue=(
            "-|{sbe} down to {v} a day now",
            "-|{s} cut back from {o} to {v} a day",
            "+|{sbe} up to {v} a day now, send help",
            "{s} [have|has] {v} a day now",
        ),
        detail=(
            "{s} [have|has] {v} a day, the first one before seven",
            "{s} [drink|drinks] about {v} a day, all before noon",
        ),
    ),
    fam(
        "me.milk",
        "food",
        SOME_ADULTS,
        MILKS,
        "milk",
        "pref",
        "preference",
        state=("{s} [take|takes] {pp} coffee with {v}", "{s} [have|has] {v} in {pp} coffee"),
        para=("{poss} coffee order is always with {v}", "when {s} [make|makes] a coffee it's with {v}"),
        cue=(
            "{s} switched to {v} in {pp} coffee",
            "{s} [take|takes] {pp} coffee with {v} now",
            "{s} went from {o} to {v} in {pp} coffee",
        ),
        detail=("{s} [take|takes] {pp} coffee with {v}, no sugar", "{s} [take|takes] {pp} coffee with {v}, extra hot"),
    ),
    fam(
        "me.tea",
        "food",
        SOME_ADULTS,
        MILKS,
        "milk",
        "pref",
        "preference",
        state=("{s} [take|takes] {pp} tea with {v}", "{s} [have|has] {v} in {pp} tea"),
        para=("{poss} cuppa is always made with {v}", "tea for {obj} means {v}"),
        cue=(
            "{s} [have|has] {v} in {pp} tea now",
            "{s} switched to {v} in {pp} tea",
            "{s} went from {o} to {v} in {pp} tea",
        ),
        detail=(
            "{s} [take|takes] {pp} tea with {v}, strong, bag left in",
            "{s} [have|has] {v} in {pp} tea and one sugar",
        ),
    ),
    fam(
        "me.goal_weight",
        "fitness",
        SOME_ADULTS,
        GOAL_WEIGHTS,
        "weight",
        "self",
        "fact",
        state=("{poss} goal weight is {v}", "{sbe} trying to get down to {v}"),
        para=("{s} [want|wants] to weigh {v}", "the number {s} [want|wants] on the scales is {v}"),
        cue=(
            "{s} changed {poss} goal weight to {v}",
            "{poss} target is {v} now",
            "{s} moved {poss} goal from {o} to {v}",
        ),
        detail=("{poss} goal weight is {v}, by the summer", "{poss} goal weight is {v}, slowly does it"),
    ),
    fam(
        "me.commute",
        "work",
        SOME_ADULTS,
        COMMUTES,
        "commute",
        "self",
        "fact",
        state=("{s} [get|gets] to work {v}", "{s} [commute|commutes] {v}"),
        para=("{poss} commute is {v}", "{s} [travel|travels] in to work {v}"),
        cue=(
            "{s} [commute|commutes] {v} now",
            "{s} no longer [go|goes] {o}, {pro} [go|goes] {v} instead",
            "{s} swapped going {o} for going {v}",
        ),
        detail=(
            "{s} [commute|commutes] {v}, about forty minutes door to door",
            "{s} [get|gets] to work {v}, podcasts all the way",
        ),
    ),
    fam(
        "me.manager",
        "work",
        SOME_ADULTS,
        MANAGERS,
        "name",
        "state",
        "fact",
        state=("{poss} manager is {v}", "{s} [report|reports] to {v}"),
        para=("{v} is {poss} boss", "{poss} line manager is {v}"),
        cue=(
            "{poss} manager is {v} now",
            "{s} [have|has] a new manager, {v}",
            "{s} got moved from {o}'s team to {v}'s",
        ),
        detail=("{poss} manager is {v}, who is very hands-off", "{poss} manager is {v}, based in the London office"),
    ),
    fam(
        "me.start",
        "work",
        SOME_ADULTS,
        TIMES_MORNING,
        "time_morning",
        "recur",
        "fact",
        state=("{s} [start|starts] work at {v}", "{poss} working day starts at {v}"),
        para=("{sbe} at {pp} desk by {v}", "{poss} shift begins at {v}"),
        cue=(
            "{poss} hours changed, {s} [start|starts] at {v} now",
            "{s} [start|starts] work at {v} now",
            "{poss} start time went from {o} to {v}",
        ),
        detail=(
            "{s} [start|starts] work at {v}, so drop-off is tight",
            "{s} [start|starts] work at {v}, with a call first thing",
        ),
    ),
    fam(
        "me.leave",
        "work",
        SOME_ADULTS,
        LEAVE_DAYS,
        "leave",
        "measure",
        "fact",
        state=("{s} [have|has] {v} days of annual leave left", "{poss} remaining holiday is {v} days"),
        para=("{v} days of leave is what {s} [have|has] left this year", "{s} can still book {v} days off this year"),
        cue=(
            "{s} [have|has] {v} days of leave left now",
            "-|{poss} leave balance is down to {v} days",
            "HR updated {poss} leave, {s} [have|has] {v} days left",
        ),
        detail=(
            "{s} [have|has] {v} days of annual leave left, to use by March",
            "{poss} remaining holiday is {v} days, plus the bank holidays",
        ),
    ),
    fam(
        "me.seat",
        "travel",
        SOME_ADULTS,
        SEATS_PREF,
        "seat_pref",
        "pref",
        "preference",
        state=("{s} [prefer|prefers] {v} on planes", "{s} always [book|books] {v}"),
        para=("{v} is what {s} [like|likes] on flights", "if there's a choice, {s} [go|goes] for {v}"),
        cue=(
            "{s} [prefer|prefers] {v} now",
            "{s} switched to booking {v}",
            "{s} [go|goes] for {v} these days, not {o}",
        ),
        detail=(
            "{s} [prefer|prefers] {v} on planes, ideally on the left",
            "{s} always [book|books] {v}, long-haul especially",
        ),
    ),
    fam(
        "me.salary",
        "work",
        SOME_ADULTS,
        SALARIES,
        "salary",
        "state",
        "fact",
        state=("{sbe} on {v} a year", "{poss} salary is {v}"),
        para=("{s} [earn|earns] {v} a year", "{poss} pay is {v} before tax"),
        cue=(
            "+|{s} got a raise, {sbe} on {v} now",
            "+|{poss} salary went up from {o} to {v}",
            "-|{s} dropped to four days a week, so {sbe} on {v} now",
            "{poss} salary is {v} as of April",
        ),
        detail=("{sbe} on {v} a year plus a small bonus", "{poss} salary is {v}, paid on the 28th"),
    ),
)

FAMILIES_HEALTH: tuple[Fam, ...] = (
    fam(
        "med.dose",
        "health",
        MEDS,
        (),
        "dose",
        "recur",
        "fact",
        state=("I take {v} of {s}", "I'm on {v} {s}", "my {s} dose is {v}"),
        para=("{v} is my dose of {s}", "my prescription for {s} is {v}", "the {s} I'm prescribed is {v}"),
        cue=(
            "+|the GP upped my {s} to {v}",
            "-|the GP lowered my {s} to {v}",
            "my {s} went from {o} to {v}",
            "they've changed my {s} dose to {v}",
            "I'm on {v} of {s} now",
        ),
        detail=("I take {v} of {s}, with food", "I'm on {v} {s}, have been for about six months"),
        quest=("what dose of {s} am I meant to be on?||what dose of {s} I'm on",),
    ),
    fam(
        "med.time",
        "health",
        MEDS,
        MED_TIMES,
        "med_time",
        "recur",
        "fact",
        state=("I take {s} {v}", "I have my {s} {v}"),
        para=("my {s} gets taken {v}", "{s} is a {v} thing for me"),
        cue=(
            "I take {s} {v} now",
            "the pharmacist said to take {s} {v} instead",
            "I've moved my {s} from {o} to {v}",
        ),
        detail=("I take {s} {v}, with a big glass of water", "I take {s} {v}, there's an alarm on my phone for it"),
        quest=("should I be taking {s} {a1} or {a2}?||whether to take {s} {a1} or {a2}",),
    ),
    fam(
        "med.refill",
        "health",
        MEDS,
        DATES,
        "date",
        "event",
        "fact",
        state=("my {s} runs out on {v}", "my {s} prescription is due on {v}"),
        para=("{v} is when my {s} runs out", "the {s} lasts me until {v}"),
        cue=("the pharmacy moved my {s} refill to {v}", "my {s} prescription is due on {v} now"),
        detail=(
            "my {s} runs out on {v}, the pharmacy needs two days' notice",
            "my {s} prescription is due on {v}, repeat one",
        ),
        quest=("when does my {s} run out?||when my {s} runs out",),
    ),
    fam(
        "appt.when",
        "health",
        APPTS,
        APPT_WHEN,
        "appt",
        "event",
        "fact",
        state=("{s} is on {v}", "{s} is booked for {v}"),
        para=("{v} is when {s} is", "they've got me down for {s} on {v}", "{s}: {v}"),
        cue=(
            "{s} got moved to {v}",
            "they rescheduled {s} to {v}",
            "{s} has been pushed from {o} to {v}",
            "{s} got brought forward to {v}",
        ),
        detail=(
            "{s} is on {v}, they said to arrive ten minutes early",
            "{s} is booked for {v}, should take about half an hour",
            "{s} is on {v}, I'll need to leave work early",
        ),
        quest=("when is {s} again?||when {s} is", "what time is {s}?||what time {s} is"),
    ),
    fam(
        "appt.where",
        "health",
        APPTS_CLINICAL,
        CLINICS,
        "clinic",
        "event",
        "fact",
        state=("{s} is at {v}", "{s} is happening at {v}"),
        para=("I'm going to {v} for {s}", "the place for {s} is {v}"),
        cue=("{s} moved to {v}", "{s} is at {v} now", "they've switched {s} from {o} to {v}"),
        detail=("{s} is at {v}, parking is a nightmare there", "{s} is at {v}, second floor"),
        quest=("where is {s} again?||where {s} is",),
    ),
)

FAMILIES_HOME: tuple[Fam, ...] = (
    fam(
        "appliance.visit",
        "home",
        APPLIANCES,
        ONE_OFF_DAYS,
        "oneoff",
        "event",
        "fact",
        state=("the engineer is coming to look at {s} on {v}", "someone's coming to fix {s} on {v}"),
        para=("{v} is when the engineer comes for {s}", "the repair for {s} is booked in for {v}"),
        cue=(
            "the engineer for {s} got moved to {v}",
            "the repair on {s} is {v} now",
            "they rescheduled the engineer for {s} from {o} to {v}",
        ),
        detail=(
            "the engineer is coming to look at {s} on {v}, sometime between 8 and 1",
            "someone's coming to fix {s} on {v}, they'll ring half an hour before",
        ),
        quest=("when is the engineer coming for {s}?||when the engineer is coming for {s}",),
    ),
    fam(
        "appliance.brand",
        "home",
        BRANDED,
        BRANDS,
        "brand",
        "state",
        "fact",
        state=("{sbe} a {v}", "our {n} is a {v}"),
        para=("{v} made our {n}", "we've got a {v} {n}"),
        cue=("we replaced {s}, it's a {v} now", "we swapped the old {o} {n} for a {v}", "our {n} is a {v} now"),
        detail=("{sbe} a {v}, about five years old", "our {n} is a {v}, still under warranty"),
    ),
    fam(
        "room.paint",
        "home",
        ROOMS,
        COLOURS,
        "colour",
        "plan",
        "plan",
        state=("we're painting {s} {v}", "{s} is going to be {v}"),
        para=("{v} is the colour for {s}", "we've picked {v} for the walls in {s}"),
        cue=(
            "we went with {v} for {s} in the end",
            "change of plan, {s} is going {v}",
            "we've gone from {o} to {v} for {s}",
            "ended up choosing {v} for {s}",
        ),
        detail=("we're painting {s} {v}, with white skirting boards", "{s} is going to be {v}, matt finish"),
        quest=("should we paint {s} {a1} or {a2}?||whether to paint {s} {a1} or {a2}",),
    ),
    fam(
        "room.curtains",
        "home",
        ROOMS,
        COLOURS,
        "colour",
        "plan",
        "plan",
        state=("we're getting {v} curtains for {s}", "the curtains in {s} are going to be {v}"),
        para=("{s} is getting {v} curtains", "{v} is the curtain colour for {s}"),
        cue=("we ended up ordering {v} curtains for {s}", "we're getting {v} curtains for {s} instead"),
        detail=(
            "we're getting {v} curtains for {s}, blackout lined",
            "the curtains in {s} are going to be {v}, floor length",
        ),
        quest=("{a1} or {a2} curtains for {s}?||whether to get {a1} or {a2} curtains for {s}",),
    ),
    fam(
        "bins.day",
        "home",
        BINS,
        WEEKDAYS,
        "weekday",
        "recur",
        "fact",
        state=("{s} [go|goes] out on a {v}", "{s} [get|gets] collected every {v}"),
        para=("{v} is {n} day", "collection for {s} is every {v}"),
        cue=(
            "the council moved {s} to {v}",
            "{s} [go|goes] out on a {v} now",
            "collection for {s} switched from {o} to {v}",
        ),
        detail=("{s} [go|goes] out on a {v}, the night before is safest", "{s} [get|gets] collected every {v}, early"),
        quest=("which day does {s} go out?||which day {s} [go|goes] out",),
    ),
)

FAMILIES_MONEY: tuple[Fam, ...] = (
    fam(
        "house.rent",
        "money",
        HOUSEHOLDS,
        MONEY_RENT,
        "money_rent",
        "recur",
        "fact",
        state=("{poss} rent is {v} a month", "{s} [pay|pays] {v} a month in rent"),
        para=("rent for {obj} is {v} a month", "{v} a month goes on rent for {obj}"),
        cue=(
            "+|{poss} rent went up to {v}",
            "+|the landlord put {poss} rent up from {o} to {v}",
            "-|the landlord knocked {poss} rent down to {v}",
            "{poss} rent is {v} a month now",
        ),
        detail=("{poss} rent is {v} a month, bills not included", "{poss} rent is {v} a month, paid by standing order"),
    ),
    fam(
        "house.energy_bill",
        "money",
        HOUSEHOLDS,
        MONEY_BILL,
        "money_bill",
        "recur",
        "fact",
        state=("{poss} energy bill is {v} a month", "{s} [pay|pays] {v} a month for gas and electric"),
        para=("gas and electric costs {obj} {v} a month", "{v} a month goes on energy for {obj}"),
        cue=(
            "+|{poss} energy direct debit went up to {v}",
            "-|the supplier cut {poss} direct debit from {o} to {v}",
            "{poss} energy bill is {v} a month now",
        ),
        detail=(
            "{poss} energy bill is {v} a month on a fixed deal",
            "{poss} energy bill is {v} a month, by direct debit",
        ),
    ),
    fam(
        "house.council_tax",
        "money",
        HOUSEHOLDS,
        MONEY_BILL,
        "money_bill",
        "recur",
        "fact",
        state=("{poss} council tax is {v} a month", "{s} [pay|pays] {v} a month in council tax"),
        para=("council tax costs {obj} {v} a month", "{v} a month goes on council tax for {obj}"),
        cue=("+|{poss} council tax went up to {v} a month", "{poss} council tax is {v} a month as of April"),
        detail=("{poss} council tax is {v} a month, over ten months", "{poss} council tax is {v} a month, band C"),
    ),
    fam(
        "house.broadband",
        "money",
        HOUSEHOLDS,
        PROVIDERS,
        "provider",
        "state",
        "fact",
        state=("{poss} broadband is with {v}", "{s} [get|gets] {pp} broadband from {v}"),
        para=("{v} provides {poss} internet", "{poss} wifi comes from {v}"),
        cue=(
            "{s} switched {pp} broadband to {v}",
            "{poss} broadband is with {v} now",
            "{s} moved from {o} to {v} for broadband",
        ),
        detail=(
            "{poss} broadband is with {v}, the 500Mb package",
            "{poss} broadband is with {v}, on an 18-month contract",
        ),
    ),
    fam(
        "house.tv",
        "money",
        HOUSEHOLDS,
        TV_PROVIDERS,
        "provider",
        "state",
        "fact",
        state=("{poss} TV is through {v}", "{s} [get|gets] {pp} telly from {v}"),
        para=("{v} does {poss} TV", "{poss} telly package is {v}"),
        cue=("{s} switched {pp} TV to {v}", "{poss} TV is through {v} now"),
        detail=(
            "{poss} TV is through {v}, with the sports add-on",
            "{s} [get|gets] {pp} telly from {v}, the basic box",
        ),
    ),
    fam(
        "house.energy_supplier",
        "money",
        HOUSEHOLDS,
        SUPPLIERS,
        "supplier",
        "state",
        "fact",
        state=("{poss} energy supplier is {v}", "{poss} gas and electric are with {v}"),
        para=("{s} [get|gets] {pp} gas and electric from {v}", "{v} supplies {poss} energy"),
        cue=("{s} switched to {v} for energy", "{poss} energy is with {v} now", "{s} moved from {o} to {v} for energy"),
        detail=(
            "{poss} energy supplier is {v}, on a tracker tariff",
            "{poss} gas and electric are with {v}, smart meter and all",
        ),
    ),
    fam(
        "service.price",
        "money",
        SERVICES,
        MONEY_SUB,
        "money_sub",
        "recur",
        "fact",
        state=("{s} is {v} a month", "I pay {v} a month for {s}"),
        para=("{s} costs me {v} monthly", "{v} a month goes on {s}"),
        cue=(
            "+|{s} went up to {v}",
            "+|they put {s} up from {o} to {v}",
            "{s} is {v} a month now",
            "-|{s} dropped to {v} when I changed plan",
        ),
        detail=("{s} is {v} a month, on my credit card", "I pay {v} a month for {s}, billed on the 3rd"),
        quest=("how much is {s} a month again?||how much {s} is a month",),
    ),
    fam(
        "service.plan",
        "money",
        STREAMING,
        PLANS,
        "plan",
        "state",
        "fact",
        state=("I'm on the {v} plan for {s}", "my {s} plan is the {v} one"),
        para=("{s} for me is the {v} tier", "the {v} plan is what I have with {s}"),
        cue=("I moved {s} to the {v} plan", "I switched {s} from {o} to {v}", "I'm on the {v} plan for {s} now"),
        detail=("I'm on the {v} plan for {s}, shared with the family", "I'm on the {v} plan for {s}, paid yearly"),
    ),
    fam(
        "service.renewal",
        "money",
        SERVICES,
        DATES,
        "date",
        "event",
        "fact",
        state=("{s} renews on {v}", "the renewal date for {s} is {v}"),
        para=("{v} is when {s} renews", "{s} comes up for renewal on {v}"),
        cue=("the renewal for {s} moved to {v}", "{s} renews on {v} now"),
        detail=("{s} renews on {v}, annual plan", "{s} renews on {v}, auto-renew is on"),
        quest=("when does {s} renew?||when {s} renews",),
    ),
    fam(
        "debit.date",
        "money",
        DEBITS,
        DAYS_OF_MONTH,
        "dom",
        "recur",
        "fact",
        state=("{s} comes out on {v}", "{s} goes out on {v} of the month"),
        para=("{v} is when {s} leaves my account", "{s} gets paid on {v} every month"),
        cue=(
            "{s} comes out on {v} now",
            "I moved {s} to {v} to line up with payday",
            "the payment date for {s} changed from {o} to {v}",
        ),
        detail=("{s} comes out on {v}, from the joint account", "{s} comes out on {v}, straight after payday"),
        quest=("what day does {s} come out?||what day {s} comes out",),
    ),
    fam(
        "account.bank",
        "money",
        ACCOUNTS,
        BANKS,
        "bank",
        "state",
        "fact",
        state=("{s} is with {v}", "I have {s} with {v}"),
        para=("{v} holds {s}", "{s} sits with {v}"),
        cue=("I moved {s} to {v}", "{s} is with {v} now", "I switched {s} from {o} to {v}"),
        detail=("{s} is with {v}, the app is great", "{s} is with {v}, branch in town"),
    ),
    fam(
        "budget.amount",
        "money",
        BUDGETS,
        MONEY_BUDGET,
        "money_budget",
        "self",
        "fact",
        state=("{s} is {v} a month", "I've set {s} at {v} a month"),
        para=("{v} a month is {s}", "{s} works out at {v} a month"),
        cue=("-|I've cut {s} to {v}", "{s} is {v} a month now", "+|I upped {s} from {o} to {v}"),
        detail=("{s} is {v} a month, tracked in a spreadsheet", "{s} is {v} a month and I'm usually under"),
    ),
    fam(
        "savings.monthly",
        "money",
        SAVINGS,
        MONEY_BUDGET,
        "money_budget",
        "self",
        "plan",
        state=("I'm putting {v} a month towards {s}", "I save {v} a month for {s}"),
        para=("{s} gets {v} from me every month", "{v} a month goes into {s}"),
        cue=(
            "+|I've upped {s} to {v} a month",
            "I'm putting {v} a month towards {s} now",
            "-|I dropped {s} from {o} to {v} a month",
        ),
        detail=(
            "I'm putting {v} a month towards {s}, straight after payday",
            "I save {v} a month for {s} in a separate pot",
        ),
    ),
    fam(
        "savings.target",
        "money",
        SAVINGS,
        MONEY_BIG,
        "money_big",
        "self",
        "plan",
        state=("the target for {s} is {v}", "I'm aiming to save {v} for {s}"),
        para=("{v} is the goal for {s}", "I want {s} to reach {v}"),
        cue=(
            "+|I've bumped the target for {s} up to {v}",
            "the target for {s} is {v} now",
            "-|I cut the target for {s} from {o} to {v}",
        ),
        detail=("the target for {s} is {v}, by next summer", "the target for {s} is {v}, about halfway there"),
    ),
)

FAMILIES_OUT: tuple[Fam, ...] = (
    fam(
        "trip.destination",
        "travel",
        TRIPS,
        DESTINATIONS,
        "destination",
        "plan",
        "plan",
        state=("we're going to {v} for {s}", "{s} is in {v}"),
        para=("{v} is where we're heading for {s}", "{s} will be {v}"),
        cue=(
            "change of plan, we're going to {v} for {s} instead",
            "we've switched {s} from {o} to {v}",
            "{s} is in {v} now, not {o}",
        ),
        detail=("we're going to {v} for {s}, flying out of Bristol", "{s} is in {v}, a week self-catering"),
        quest=("where should we go for {s}, {a1} or {a2}?||whether to do {a1} or {a2} for {s}",),
    ),
    fam(
        "trip.dates",
        "travel",
        TRIPS,
        TRIP_DATES,
        "trip_dates",
        "event",
        "plan",
        state=("{s} is {v}", "we're away for {s} {v}"),
        para=("{v} is when {s} is", "the dates for {s} are {v}"),
        cue=("{s} got moved to {v}", "we've pushed {s} to {v}", "{s} is {v} now"),
        detail=("{s} is {v}, I've booked the time off", "{s} is {v}, back on the Sunday night"),
        quest=("what are the dates for {s} again?||the dates for {s}",),
    ),
    fam(
        "journey.departure",
        "travel",
        JOURNEYS,
        DEPARTURES,
        "time_any",
        "event",
        "fact",
        state=("{s} leaves at {v}", "{s} departs at {v}"),
        para=("{v} is when {s} goes", "{s} is scheduled for {v}"),
        cue=("{s} has been retimed to {v}", "{s} leaves at {v} now", "{s} got moved from {o} to {v}"),
        detail=(
            "{s} leaves at {v}, we need to be there an hour before",
            "{s} departs at {v}, check-in closes 45 minutes before",
        ),
        quest=("what time does {s} leave?||what time {s} leaves", "when does {s} go?||when {s} goes"),
    ),
    fam(
        "journey.seat",
        "travel",
        JOURNEYS,
        SEAT_NUMBERS,
        "seat",
        "event",
        "fact",
        state=("I'm in seat {v} on {s}", "my seat on {s} is {v}"),
        para=("{v} is my seat on {s}", "they've put me in {v} on {s}"),
        cue=("I've been moved to seat {v} on {s}", "my seat on {s} is {v} now"),
        detail=("I'm in seat {v} on {s}, by the window", "my seat on {s} is {v}, with extra legroom"),
        quest=("which seat am I in on {s}?||which seat I'm in on {s}",),
    ),
    fam(
        "hotel.checkin",
        "travel",
        HOTELS,
        CHECKINS,
        "checkin",
        "event",
        "fact",
        state=("check-in at {s} is {v}", "we can check in to {s} from {v}"),
        para=("{s} lets us in from {v}", "{v} is check-in time at {s}"),
        cue=("check-in at {s} got changed to {v}", "{s} said check-in is {v} now"),
        detail=(
            "check-in at {s} is {v}, key box by the door",
            "we can check in to {s} from {v}, parking round the back",
        ),
        quest=("what time is check-in at {s}?||what time check-in at {s} is",),
    ),
    fam(
        "hotel.price",
        "travel",
        HOTELS,
        MONEY_NIGHT,
        "money_night",
        "event",
        "fact",
        state=("{s} is {v} a night", "we're paying {v} a night for {s}"),
        para=("{s} costs {v} per night", "{v} a night is the rate at {s}"),
        cue=("-|{s} dropped to {v} a night", "{s} is {v} a night now", "the rate at {s} went from {o} to {v}"),
        detail=("{s} is {v} a night, breakfast included", "{s} is {v} a night, with free parking"),
        quest=("how much is {s} a night?||how much {s} is a night",),
    ),
    fam(
        "event.date",
        "events",
        EVENTS,
        DATES,
        "date",
        "event",
        "fact",
        state=("{s} is on {v}", "{s} is happening on {v}"),
        para=("{v} is the date for {s}", "the date for {s} is {v}"),
        cue=("{s} is on {v} now", "{s} got moved to {v}", "{s} has been moved from {o} to {v}"),
        detail=("{s} is on {v}, starting at seven", "{s} is on {v}, an afternoon thing"),
        quest=("when is {s} again?||when {s} is",),
    ),
    fam(
        "event.venue",
        "events",
        EVENTS,
        VENUES,
        "venue",
        "event",
        "fact",
        state=("{s} is at {v}", "{s} is being held at {v}"),
        para=("{v} is hosting {s}", "the venue for {s} is {v}"),
        cue=("{s} moved to {v}", "{s} is at {v} now", "they've switched {s} from {o} to {v}"),
        detail=("{s} is at {v}, there's a car park", "{s} is being held at {v}, in the back room"),
        quest=("where is {s}?||where {s} is",),
    ),
    fam(
        "event.guests",
        "events",
        EVENTS,
        GUESTS,
        "guests",
        "event",
        "fact",
        state=("we're expecting {v} people at {s}", "{s} is about {v} people"),
        para=("{v} guests are coming to {s}", "the headcount for {s} is {v}"),
        cue=(
            "+|{s} is up to {v} people now",
            "-|{s} is down to {v} people now",
            "numbers for {s} went from {o} to {v}",
        ),
        detail=("we're expecting {v} people at {s}, a few kids", "{s} is about {v} people, buffet style"),
        quest=("how many are coming to {s}?||how many are coming to {s}",),
    ),
    fam(
        "activity.day",
        "activities",
        ACTIVITIES,
        ACT_DAYS,
        "act_day",
        "recur",
        "fact",
        state=("{s} [are|is] on {v}", "{s} [run|runs] on {v}"),
        para=("{v} are for {s}", "{s} [happen|happens] on {v}"),
        cue=("{s} [have|has] moved to {v}", "{s} [are|is] on {v} now", "{s} switched from {o} to {v}"),
        detail=("{s} [are|is] on {v}, seven till nine", "{s} [are|is] on {v}, ten week block"),
        quest=("what day [are|is] {s} on this term?||what day {s} [are|is] on this term",),
    ),
    fam(
        "activity.teacher",
        "activities",
        ACT_TAUGHT,
        TEACHERS,
        "teacher",
        "state",
        "fact",
        state=("the teacher for {s} is {v}", "{s} [are|is] run by {v}"),
        para=("{v} runs {s}", "{v} is in charge of {s}"),
        cue=(
            "{s} [have|has] a new teacher, {v}",
            "{s} [are|is] run by {v} now",
            "{s} went from {o} to {v} as the teacher",
        ),
        detail=("the teacher for {s} is {v}, who is very patient", "{s} [are|is] run by {v}, who is a bit strict"),
        quest=("who takes {s} this term?||who takes {s} this term",),
    ),
    fam(
        "activity.cost",
        "activities",
        ACT_PAID,
        MONEY_TERM,
        "money_term",
        "recur",
        "fact",
        state=("{s} [cost|costs] {v} a term", "{s} [are|is] {v} a term"),
        para=("I pay {v} a term for {s}", "{v} a term covers {s}"),
        cue=("+|{s} went up to {v} a term", "{s} [are|is] {v} a term now", "{s} went from {o} to {v} a term"),
        detail=("{s} [cost|costs] {v} a term, paid up front", "{s} [are|is] {v} a term, plus kit"),
        quest=("how much [are|is] {s} a term?||how much {s} [are|is] a term",),
    ),
    fam(
        "exam.date",
        "activities",
        EXAMS,
        DATES,
        "date",
        "event",
        "fact",
        state=("{s} is on {v}", "{s} is booked for {v}"),
        para=("{v} is the date for {s}", "the date for {s} is {v}"),
        cue=("{s} got rescheduled to {v}", "{s} is on {v} now", "{s} moved from {o} to {v}"),
        detail=("{s} is on {v}, in the morning", "{s} is on {v}, bring photo ID"),
        quest=("when is {s}?||when {s} is",),
    ),
    fam(
        "order.delivery",
        "shopping",
        ORDERS,
        ONE_OFF_DAYS,
        "oneoff",
        "event",
        "fact",
        state=("{s} [are|is] arriving on {v}", "{s} should be delivered on {v}"),
        para=("{v} is delivery day for {s}", "delivery for {s} is {v}"),
        cue=("{s} got delayed to {v}", "{s} [are|is] arriving on {v} now", "delivery for {s} moved from {o} to {v}"),
        detail=(
            "{s} [are|is] arriving on {v}, between seven and seven lol",
            "{s} should be delivered on {v}, needs a signature",
        ),
        quest=("when [are|is] {s} arriving?||when {s} [are|is] arriving",),
    ),
    fam(
        "order.courier",
        "shopping",
        ORDERS,
        COURIERS,
        "courier",
        "event",
        "fact",
        state=("{s} [are|is] coming with {v}", "{v} [are|is] delivering {s}"),
        para=("{s} [are|is] being brought by {v}", "the courier for {s} is {v}"),
        cue=("{s} got passed over to {v}", "{s} [are|is] coming with {v} now"),
        detail=(
            "{s} [are|is] coming with {v}, tracking number in my email",
            "{v} [are|is] delivering {s}, they'll leave it in the porch",
        ),
        quest=("which courier is bringing {s}?||which courier is bringing {s}",),
    ),
)

FAMILIES_THINGS: tuple[Fam, ...] = (
    fam(
        "car.mot",
        "cars",
        CARS,
        MONTHS,
        "month",
        "recur",
        "fact",
        state=("{poss} MOT is due in {v}", "the MOT on {s} is due in {v}"),
        para=("{v} is MOT month for {s}", "{s} needs its MOT in {v}"),
        cue=("{poss} MOT date moved to {v}", "{poss} MOT is due in {v} now", "the MOT on {s} went from {o} to {v}"),
        detail=(
            "{poss} MOT is due in {v}, at the garage by the big Tesco",
            "the MOT on {s} is due in {v}, near the end",
        ),
        quest=("when is the MOT due on {s}?||when the MOT on {s} is due",),
    ),
    fam(
        "car.insurance_month",
        "cars",
        CARS,
        MONTHS,
        "month",
        "recur",
        "fact",
        state=("the insurance on {s} renews in {v}", "{poss} insurance is up for renewal in {v}"),
        para=("{v} is when the insurance on {s} renews", "{s} needs reinsuring every {v}"),
        cue=("the insurance on {s} renews in {v} now", "{poss} renewal moved from {o} to {v}"),
        detail=(
            "the insurance on {s} renews in {v}, always shop around",
            "{poss} insurance is up for renewal in {v}, fully comp",
        ),
        quest=("when does the insurance on {s} renew?||when the insurance on {s} renews",),
    ),
    fam(
        "car.insurer",
        "cars",
        CARS,
        INSURERS,
        "insurer",
        "state",
        "fact",
        state=("{s} is insured with {v}", "{poss} insurance is with {v}"),
        para=("{v} insure {s}", "{s} is covered by {v}"),
        cue=(
            "I moved {poss} insurance to {v}",
            "{s} is insured with {v} now",
            "{poss} insurance switched from {o} to {v}",
        ),
        detail=(
            "{s} is insured with {v}, with a protected no-claims",
            "{poss} insurance is with {v}, black box and all",
        ),
    ),
    fam(
        "pet.food",
        "pets",
        (*DOGS, *CATS),
        PET_FOODS,
        "pet_food",
        "self",
        "fact",
        state=("{s} [eat|eats] {v}", "{sbe} on {v}"),
        para=("{v} is what {s} [eat|eats]", "we feed {obj} {v}"),
        cue=("we switched {obj} to {v}", "{sbe} on {v} now", "we moved {obj} from {o} to {v}"),
        detail=("{s} [eat|eats] {v}, a scoop morning and night", "{sbe} on {v}, the sensitive recipe"),
    ),
    fam(
        "pet.vet",
        "pets",
        PETS,
        APPT_WHEN,
        "appt",
        "event",
        "fact",
        state=("{poss} vet appointment is on {v}", "{sbe} booked in at the vet on {v}"),
        para=("{v} is {poss} vet visit", "the vet is seeing {obj} on {v}"),
        cue=("{poss} vet appointment got moved to {v}", "{poss} vet appointment is on {v} now"),
        detail=("{poss} vet appointment is on {v}, just a check-up", "{sbe} booked in at the vet on {v} for {pp} jabs"),
        quest=("when is {poss} vet appointment?||when {poss} vet appointment is",),
    ),
    fam(
        "pet.weight",
        "pets",
        (*DOGS, *CATS),
        (),
        "pet_weight",
        "measure",
        "fact",
        state=("{s} [weigh|weighs] {v}", "{poss} weight is {v}"),
        para=("the scales say {v} for {obj}", "{s} [come|comes] in at {v} on the scales"),
        cue=("{sbe} {v} now", "{s} went from {o} to {v}", "{s} [weigh|weighs] {v} now, according to the vet"),
        detail=(
            "{s} [weigh|weighs] {v}, which the vet is happy with",
            "{s} [weigh|weighs] {v}, a bit on the chunky side",
        ),
    ),
    fam(
        "pet.sitter",
        "pets",
        PETS,
        SITTERS,
        "sitter",
        "state",
        "fact",
        state=("{poss} sitter is {v}", "{v} looks after {obj} when we're away"),
        para=("when we go away, {v} has {obj}", "{v} is the one who minds {obj}"),
        cue=("{poss} sitter is {v} now", "we've switched {poss} sitter from {o} to {v}"),
        detail=(
            "{poss} sitter is {v}, who lives round the corner",
            "{v} looks after {obj} when we're away, at their place",
        ),
        quest=("who's looking after {obj} while we're away?||who's looking after {obj} while we're away",),
    ),
    fam(
        "doc.expiry",
        "admin",
        DOCS,
        EXPIRIES,
        "expiry",
        "state",
        "fact",
        state=("{s} expires in {v}", "{poss} expiry date is {v}"),
        para=("{s} runs out in {v}", "{s} is valid until {v}"),
        cue=(
            "{s} has been renewed, it expires in {v} now",
            "{s} expires in {v} now",
            "I misread it, {s} expires in {v}",
        ),
        detail=("{s} expires in {v}, the photo is awful", "{s} expires in {v}, ten-year one"),
        quest=("when does {s} expire?||when {s} expires",),
    ),
    fam(
        "phone.network",
        "admin",
        PHONES,
        NETWORKS,
        "network",
        "state",
        "fact",
        state=("{s} is on {v}", "the contract for {s} is with {v}"),
        para=("{v} is the network for {s}", "{s} uses {v}"),
        cue=("{s} moved to {v}", "{s} is on {v} now", "we switched {s} from {o} to {v}"),
        detail=("{s} is on {v}, unlimited data", "{s} is on {v}, SIM only"),
    ),
)

ALL_FAMILIES: tuple[Fam, ...] = (
    *FAMILIES,
    *FAMILIES_ME,
    *FAMILIES_HEALTH,
    *FAMILIES_HOME,
    *FAMILIES_MONEY,
    *FAMILIES_OUT,
    *FAMILIES_THINGS,
)


# --------------------------------------------------------------------------------------------------------------
# Yes/no attributes (negation frames)
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Binary:
    """A yes/no attribute, optionally per item ({x}): affirmed, denied, denied with a cue, affirmed with a cue."""

    key: str
    domain: str
    pool: tuple[Subj, ...]
    items: tuple[str, ...]
    kind: str
    aff: tuple[str, ...]
    neg: tuple[str, ...]
    negcue: tuple[str, ...]
    affcue: tuple[str, ...]


ALLERGENS = ("penicillin", "peanuts", "shellfish", "latex", "ibuprofen", "cats", "bee stings", "kiwi", "sesame")
CLUBS = ("Brownies", "Cubs", "gymnastics", "karate", "drama club", "Beavers", "Scouts", "street dance")
EVENT_NAMES = tuple(e.key for e in EVENTS)

BINARIES: tuple[Binary, ...] = (
    Binary(
        "allergy",
        "health",
        EVERYONE,
        ALLERGENS,
        "fact",
        aff=("{sbe} allergic to {x}", "{s} can't have anything to do with {x}, {probe} allergic"),
        neg=("{sneg} allergic to {x}", "{s} [don't|doesn't] have an allergy to {x}"),
        negcue=(
            "turns out {sneg} allergic to {x} after all",
            "{sneg} allergic to {x} anymore, {pro} grew out of it",
            "the allergy clinic tested {obj} and {sneg} allergic to {x} after all",
        ),
        affcue=("turns out {sbe} allergic to {x} after all", "{sbe} allergic to {x} now, it came on this year"),
    ),
    Binary(
        "on_med",
        "health",
        (ME,),
        MED_NAMES,
        "fact",
        aff=("I'm on {x}", "I take {x} every day"),
        neg=("I'm not on {x}", "I don't take {x}"),
        negcue=(
            "I came off {x} last month",
            "I'm no longer on {x}",
            "I've stopped taking {x}",
            "I don't take {x} anymore",
        ),
        affcue=("I'm back on {x} now", "the GP has put me on {x} now"),
    ),
    Binary(
        "vegetarian",
        "food",
        EVERYONE,
        ("",),
        "fact",
        aff=("{sbe} vegetarian", "{s} [don't|doesn't] eat meat"),
        neg=("{sneg} vegetarian", "{s} [eat|eats] meat"),
        negcue=("{sneg} vegetarian anymore", "{s} [eat|eats] meat again now", "{s} gave up being vegetarian"),
        affcue=("{sbe} vegetarian now", "{s} [have|has] gone vegetarian"),
    ),
    Binary(
        "smokes",
        "health",
        ADULTS,
        ("",),
        "fact",
        aff=("{s} [smoke|smokes]", "{sbe} a smoker"),
        neg=("{s} [don't|doesn't] smoke", "{sneg} a smoker"),
        negcue=("{s} quit smoking", "{s} [don't|doesn't] smoke anymore", "{s} [have|has] given up smoking"),
        affcue=("{sbe} smoking again now", "{s} started smoking again, which is a shame"),
    ),
    Binary(
        "drives",
        "people",
        ADULTS,
        ("",),
        "fact",
        aff=("{s} [drive|drives]", "{s} still [drive|drives]"),
        neg=("{s} [don't|doesn't] drive", "{s} can't drive"),
        negcue=(
            "{s} [have|has] given up driving",
            "{s} [don't|doesn't] drive anymore",
            "{s} stopped driving this year",
        ),
        affcue=("{s} passed {pp} test, so {pro} [drive|drives] now",),
    ),
    Binary(
        "attending",
        "events",
        (*ADULTS, *KIDS),
        EVENT_NAMES,
        "fact",
        aff=("{sbe} coming to {x}", "{s} said yes to {x}"),
        neg=("{sneg} coming to {x}", "{s} can't make {x}"),
        negcue=("{s} pulled out of {x}", "{sneg} coming to {x} anymore", "{s} cancelled on {x}"),
        affcue=("{s} can make {x} after all", "{sbe} coming to {x} now"),
    ),
    Binary(
        "club",
        "kids",
        KIDS,
        CLUBS,
        "fact",
        aff=("{s} [do|does] {x}", "{s} [go|goes] to {x} every week"),
        neg=("{s} [don't|doesn't] do {x}", "{s} [don't|doesn't] go to {x}"),
        negcue=("{s} quit {x}", "{s} [don't|doesn't] do {x} anymore", "{s} stopped going to {x}"),
        affcue=("{s} [do|does] {x} now", "{s} joined {x} this term"),
    ),
    Binary(
        "pet_insured",
        "pets",
        PETS,
        ("",),
        "fact",
        aff=("{sbe} insured", "{s} [have|has] pet insurance"),
        neg=("{sneg} insured", "{s} [don't|doesn't] have pet insurance"),
        negcue=("we cancelled {poss} insurance", "{sneg} insured anymore"),
        affcue=("{sbe} insured now", "we've got {obj} insured now"),
    ),
    Binary(
        "pet_chipped",
        "pets",
        PETS,
        ("",),
        "fact",
        aff=("{sbe} microchipped", "{s} [have|has] a microchip"),
        neg=("{sneg} microchipped", "{s} [don't|doesn't] have a microchip"),
        negcue=("turns out {sneg} microchipped after all, the vet couldn't find one",),
        affcue=("{sbe} microchipped now", "{s} got microchipped at the vet's this week"),
    ),
    Binary(
        "subscribed",
        "money",
        SERVICES[:12],
        ("",),
        "fact",
        aff=("I pay for {s}", "I'm subscribed to {s}"),
        neg=("I don't pay for {s}", "I'm not subscribed to {s}"),
        negcue=("I cancelled {s}", "I don't pay for {s} anymore", "I've stopped paying for {s}"),
        affcue=("I've re-subscribed to {s}", "I'm paying for {s} now"),
    ),
    Binary(
        "broken",
        "home",
        APPLIANCES,
        ("",),
        "observation",
        aff=("{sbe} broken", "{sbe} on the blink"),
        neg=("{sbe} working fine", "{sneg} broken"),
        negcue=("{sbe} fixed now", "{s} got repaired this week", "{sbe} working again now", "{sneg} broken anymore"),
        affcue=("{s} [have|has] packed in now", "{sbe} broken now, it went last night"),
    ),
    Binary(
        "trip_booked",
        "travel",
        TRIPS,
        ("",),
        "plan",
        aff=("we've booked {s}", "{sbe} booked"),
        neg=("we haven't booked {s}", "{sneg} booked"),
        negcue=("we cancelled {s}", "{sbe} off, we cancelled it", "{sneg} happening anymore"),
        affcue=("we've booked {s} now", "{sbe} booked now, deposit paid"),
    ),
)


# --------------------------------------------------------------------------------------------------------------
# Open loops: tasks and their outcomes
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    group: str
    imp: str  # imperative: "call the plumber"
    past: str  # "called the plumber"
    topic: str  # noun phrase: "the plumber"


def _tasks(group: str, rows: Sequence[tuple[str, str, str]]) -> tuple[Task, ...]:
    return tuple(Task(group, imp, past, topic) for imp, past, topic in rows)


TASKS: tuple[Task, ...] = (
    *_tasks(
        "car",
        (
            ("book the car in for its MOT", "booked the car in for its MOT", "the MOT booking"),
            ("renew the car insurance", "renewed the car insurance", "the car insurance renewal"),
            ("get the tyres checked", "got the tyres checked", "the tyre check"),
            ("pay the road tax", "paid the road tax", "the road tax"),
            ("get the windscreen chip fixed", "got the windscreen chip fixed", "the windscreen chip"),
            ("clean out the car before the trip", "cleaned out the car", "the car clean-out"),
        ),
    ),
    *_tasks(
        "house",
        (
            ("call the plumber about the dripping tap", "called the plumber about the dripping tap", "the plumber"),
            ("bleed the radiators", "bled the radiators", "bleeding the radiators"),
            ("get a quote for the fence", "got a quote for the fence", "the fence quote"),
            ("clear the gutters", "cleared the gutters", "clearing the gutters"),
            ("take the old mattress to the tip", "took the old mattress to the tip", "the mattress run"),
            ("defrost the freezer", "defrosted the freezer", "defrosting the freezer"),
            ("submit the meter readings", "submitted the meter readings", "the meter reading"),
        ),
    ),
    *_tasks(
        "health",
        (
            ("book a dentist check-up", "booked a dentist check-up", "the dentist check-up"),
            ("order my repeat prescription", "ordered my repeat prescription", "the repeat prescription"),
            ("ring the GP about my blood results", "rang the GP about my blood results", "the GP call"),
            ("book an eye test", "booked an eye test", "the eye test"),
            ("get my flu jab", "got my flu jab", "the flu jab"),
            ("pick up Mum's prescription", "picked up Mum's prescription", "Mum's prescription"),
        ),
    ),
    *_tasks(
        "pets",
        (
            ("book Biscuit's booster jab", "booked Biscuit's booster jab", "Biscuit's booster"),
            ("buy more cat litter", "bought more cat litter", "the cat litter"),
            ("find a sitter for Otis over Easter", "found a sitter for Otis over Easter", "the Easter dog sitter"),
            ("renew the pet insurance", "renewed the pet insurance", "the pet insurance"),
            ("get the rabbit's nails clipped", "got the rabbit's nails clipped", "the rabbit's nail trim"),
            ("order the worming tablets", "ordered the worming tablets", "the worming tablet order"),
        ),
    ),
    *_tasks(
        "money",
        (
            ("cancel the free trial before it charges me", "cancelled the free trial", "the free trial"),
            ("move £200 into savings", "moved £200 into savings", "the savings transfer"),
            ("do my tax return", "did my tax return", "the tax return"),
            ("chase the airline for our refund", "got the refund off the airline", "the airline refund"),
            ("pay Jess back for the concert tickets", "paid Jess back for the concert tickets", "paying Jess back"),
            ("check if we're on the cheapest energy tariff", "checked our energy tariff", "the tariff check"),
        ),
    ),
    *_tasks(
        "travel",
        (
            ("renew my passport", "renewed my passport", "the passport renewal"),
            ("book the airport parking", "booked the airport parking", "the airport parking"),
            ("buy travel insurance for the summer", "bought travel insurance for the summer", "the travel insurance"),
            ("get some euros", "got some euros", "getting euros"),
            ("book a table for our anniversary", "booked a table for our anniversary", "the anniversary table"),
            ("print the boarding passes", "printed the boarding passes", "printing the boarding passes"),
        ),
    ),
    *_tasks(
        "kids",
        (
            ("sign Leo up for swimming lessons", "signed Leo up for swimming lessons", "Leo's swimming sign-up"),
            ("fill in Ava's school trip form", "filled in Ava's school trip form", "the school trip form"),
            ("buy a costume for World Book Day", "bought a costume for World Book Day", "the World Book Day costume"),
            ("book Leo's haircut", "booked Leo's haircut", "Leo's haircut"),
            ("top up Ava's dinner money", "topped up Ava's dinner money", "the dinner money"),
            ("label all the school uniform", "labelled all the school uniform", "labelling the uniform"),
        ),
    ),
    *_tasks(
        "admin",
        (
            ("send the form back to the council", "sent the form back to the council", "the council form"),
            (
                "reply to the landlord about the inspection",
                "replied to the landlord about the inspection",
                "the landlord email",
            ),
            ("return the jumper to Zara", "returned the jumper to Zara", "the Zara return"),
            ("cancel the gym membership", "cancelled the gym membership", "cancelling the gym"),
            ("register to vote at this address", "registered to vote at this address", "the voter registration"),
            ("sort out a will", "sorted out a will", "the will"),
        ),
    ),
    *_tasks(
        "gifts",
        (
            ("buy Dad a birthday present", "bought Dad's birthday present", "Dad's present"),
            ("send Grandma a card", "sent Grandma a card", "Grandma's card"),
            ("order flowers for Mum", "ordered flowers for Mum", "ordering Mum's flowers"),
            ("wrap the kids' presents", "wrapped the kids' presents", "wrapping the presents"),
            ("get a leaving card for Hannah at work", "got Hannah's leaving card", "Hannah's leaving card"),
        ),
    ),
    *_tasks(
        "work",
        (
            ("finish my expenses before Friday", "finished my expenses", "my expenses claim"),
            ("book annual leave for August", "booked annual leave for August", "the August leave request"),
            ("update my CV", "updated my CV", "the CV"),
            ("email HR about my pension", "emailed HR about my pension", "the pension email"),
            ("prep for Monday's appraisal", "prepped for Monday's appraisal", "the appraisal prep"),
        ),
    ),
    *_tasks(
        "hobbies",
        (
            ("restring my guitar", "restrung my guitar", "restringing my guitar"),
            ("sign up for the 10k in May", "signed up for the 10k in May", "the 10k sign-up"),
            ("finish the book for book club", "finished the book for book club", "the book club book"),
            ("get my bike serviced", "got my bike serviced", "the bike service"),
            ("pay my choir subs", "paid my choir subs", "paying my choir subs"),
        ),
    ),
)

TASK_FRAMES = (
    "I need to {imp}",
    "remind me to {imp}",
    "todo: {imp}",
    "I've got to {imp} this week",
    "must {imp} at some point",
    "don't let me forget to {imp}",
    "note to self - {imp}",
    "I should really {imp}",
    "can you nag me to {imp}?",
    "on my list: {imp}",
    "I have to {imp} before the weekend",
    "need to remember to {imp}",
)
TASK_RESTATED = (
    "still need to {imp}",
    "I still haven't managed to {imp}",
    "reminder: {imp}",
    "{imp} - still on the list",
    "I really must {imp}",
    "ugh, still haven't got round to it: {imp}",
    "don't let me forget to {imp}",
    "{topic} is still on my to-do list",
    "I need to {imp}, keep bugging me",
    "haven't done it yet - {imp}",
    "{topic} is still outstanding",
)
TASK_DONE = (
    "I {past}",
    "{past} this morning",
    "just {past}",
    "finally {past}!",
    "{past} - tick that off",
    "ok, {past}, so that's done",
    "{topic} is done",
    "{topic}: done",
    "{topic} is sorted",
    "all sorted, I {past} yesterday",
    "managed it - {past}",
    "you can take {topic} off my list, I {past}",
    "{past} at lunch, one less thing",
)
TASK_DROPPED = (
    "no need to {imp} anymore, {reason}",
    "forget {topic}, {reason}",
    "I'm not going to {imp} after all, {reason}",
    "cancel the reminder to {imp}",
    "take {topic} off the list - {reason}",
    "scrap {topic}, {reason}",
    "{topic} isn't happening, {reason}",
    "drop {topic}, {reason}",
    "don't bother reminding me about {topic} anymore, {reason}",
)
DROP_REASONS = (
    "someone else dealt with it",
    "it's not needed",
    "my partner did it",
    "plans changed",
    "it turned out not to matter",
    "we've decided against it",
    "it's been taken care of",
    "it's too late for it now anyway",
)

# --------------------------------------------------------------------------------------------------------------
# Open loops: questions and their answers
# --------------------------------------------------------------------------------------------------------------

ANSWER_LEADS = (
    "",
    "",
    "",
    "found out: ",
    "ok, checked - ",
    "to answer my own question, ",
    "got an answer on that: ",
    "looked it up and ",
    "they confirmed ",
    "sorted that question - ",
    "ok so ",
    "rang them, ",
)
DECISION_LEADS = (
    "",
    "",
    "decided: ",
    "ok, we've decided - ",
    "made up my mind, ",
    "ok so ",
    "to answer my own question, ",
    "sorted, ",
)
QUESTION_RESTATED = (
    "still wondering: {q}",
    "I still don't know {e}",
    "still need to find out {e}",
    "can you help me work out {e}?",
    "haven't figured out {e} yet",
    "do you know {e}?",
    "{q} I keep forgetting to check",
    "again, {q}",
    "any idea {e}?",
    "not sure yet {e}",
)
QUESTION_LEADS = ("", "", "", "quick question, ", "random one: ", "hmm, ", "sorry, ")

# --------------------------------------------------------------------------------------------------------------
# Generic update wrappers around a plain statement {X}
# --------------------------------------------------------------------------------------------------------------
# (pattern, styles it fits, usable when the value did NOT change). {o} is the old value, {d} a date phrase.

ALL_STYLES = "state recur self measure event plan pref fixed"
CHANGEABLE = "state recur self measure event plan pref"


@dataclass(frozen=True)
class Wrapper:
    pattern: str
    styles: tuple[str, ...]
    same_ok: bool


def _w(pattern: str, styles: str, *, same_ok: bool = False) -> Wrapper:
    return Wrapper(pattern, tuple(styles.split()), same_ok)


WRAPPERS: tuple[Wrapper, ...] = (
    _w("{X} now", CHANGEABLE, same_ok=True),
    _w("{X} now, not {o}", CHANGEABLE),
    _w("{X}, not {o} anymore", CHANGEABLE),
    _w("not {o} any more - {X}", CHANGEABLE),
    _w("{X} these days, not {o}", "state recur self measure pref"),
    _w("update: {X}", CHANGEABLE, same_ok=True),
    _w("quick update - {X}", CHANGEABLE, same_ok=True),
    _w("small update, {X}", CHANGEABLE, same_ok=True),
    _w("ok so scratch that, {X}", "event plan state recur self measure"),
    _w("scratch that, {X}", "event plan"),
    _w("scratch what I said before, {X}", CHANGEABLE),
    _w("change of plan: {X}", "event plan self"),
    _w("change of plans, {X}", "event plan"),
    _w("actually, {X}", ALL_STYLES),
    _w("actually {X}, not {o}", ALL_STYLES),
    _w("correction: {X}", ALL_STYLES, same_ok=True),
    _w("turns out {X}", "fixed state event", same_ok=True),
    _w("it turns out I had it wrong: {X}", "fixed state"),
    _w("I had that wrong before, {X}", "fixed state"),
    _w("sorry, I got that wrong earlier - {X}", "fixed state event"),
    _w("as of {d}, {X}", "state recur self", same_ok=True),
    _w("{X} as of {d}", "state recur self", same_ok=True),
    _w("starting {d}, {X}", "recur self state", same_ok=True),
    _w("{X}, starting {d}", "recur self", same_ok=True),
    _w("from {d}, {X}", "recur self"),
    _w("from now on {X}", "recur self pref", same_ok=True),
    _w("going forward, {X}", "recur self pref", same_ok=True),
    _w("{X} going forward", "recur self pref", same_ok=True),
    _w("heads up, it's changed: {X}", "event recur self state"),
    _w("they've changed it, {X}", "event recur"),
    _w("{X} - it got changed", "event recur"),
    _w("{X}, they've updated it", "event recur", same_ok=True),
    _w("it's been updated: {X}", "event recur state", same_ok=True),
    _w("please update that: {X}", CHANGEABLE, same_ok=True),
    _w("new info: {X}", CHANGEABLE),
    _w("fyi that's different now, {X}", CHANGEABLE),
    _w("ignore what I said about {o}, {X}", CHANGEABLE),
    _w("{X} (was {o})", ALL_STYLES),
    _w("{X}, was {o} before", CHANGEABLE),
    _w("used to be {o}, but {X} now", "state recur self measure pref"),
    _w("no longer {o}: {X}", CHANGEABLE),
    _w("so {X} instead", "plan event self"),
    _w("{X} instead", "plan event pref self"),
    _w("{X} instead of {o}", "plan pref self"),
    _w("in the end {X}", "plan"),
    _w("latest: {X}", "event plan", same_ok=True),
    _w("ok so the {o} thing is out of date, {X}", CHANGEABLE),
)
WHEN_PHRASES = (
    "next month",
    "Monday",
    "the 1st",
    "this week",
    "January",
    "April",
    "next week",
    "September",
    "today",
    "the start of next month",
)

# --------------------------------------------------------------------------------------------------------------
# Chatter: chatty leads that are not update cues, hedges, endings, and the unrelated sentences of long turns
# --------------------------------------------------------------------------------------------------------------

CHATTY_LEADS = (
    "by the way, ",
    "btw ",
    "also, ",
    "oh and ",
    "another thing: ",
    "just so you know, ",
    "fyi, ",
    "for the record, ",
    "quick one - ",
    "random, but ",
    "not sure if I mentioned, ",
    "oh, also ",
    "so, ",
    "right, ",
    "ok, ",
    "again, ",
    "I just remembered, ",
    "I just wanted to say, ",
    "note: ",
    "one more thing, ",
    "oh yeah, ",
    "forgot to say, ",
    "while I think of it, ",
    "something for you to keep: ",
)
RESTATE_LEADS = (
    "again, ",
    "as I said, ",
    "like I mentioned, ",
    "just so it's saved, ",
    "reminder: ",
    "for the record, ",
    "to confirm, ",
    "yep, ",
    "just double-checking you've got this: ",
    "just repeating this: ",
    "like I told you, ",
    "in case I didn't say, ",
)
HEDGES = ("I think ", "pretty sure ", "if I remember right, ", "I reckon ", "as far as I know, ")
ENDINGS = (
    (".", 50),
    ("", 16),
    ("!", 7),
    (" lol", 4),
    (" haha", 3),
    (" :)", 3),
    (", fyi", 3),
    (" - just so you know", 2),
    (", can you remember that?", 3),
    (", make a note", 2),
    ("!!", 2),
    (" x", 1),
    (", if that matters", 2),
    (" ugh", 2),
)
TYPOS = {
    "definitely": "definately",
    "because": "becuase",
    "tomorrow": "tomorow",
    "really": "realy",
    "probably": "probly",
    "the": "teh",
    "with": "wiht",
    "about": "abuot",
    "think": "thnik",
    "weird": "wierd",
    "which": "whcih",
    "though": "tho",
    "you": "u",
    "appointment": "appointmnet",
    "thanks": "thx",
    "people": "ppl",
    "their": "thier",
    "friend": "freind",
    "until": "untill",
    "week": "wek",
    "morning": "mornign",
}

CHATTER = (
    "Sorry, typing this one-handed.",
    "It's been one of those mornings.",
    "Honestly, where does the week go?",
    "Anyway, that's enough about that.",
    "I've got about ten tabs open and none of them are useful.",
    "I nearly forgot to tell you this bit.",
    "Does that make sense?",
    "What do you reckon?",
    "Is that weird?",
    "Not that it matters much.",
    "Someone down the road has been mowing since seven.",
    "I had the worst night's sleep.",
    "My back is killing me today.",
    "Sorry for the essay.",
    "There's a pigeon on the windowsill just staring at me.",
    "The sun's out for once.",
    "We had a lovely walk by the river yesterday.",
    "Been listening to the same album on repeat all week.",
    "Ok, brain dump time.",
    "This is going to be a bit of a ramble, sorry.",
    "Bear with me.",
    "My paper notes are a mess so I'm telling you.",
    "Thanks for the help with that recipe, by the way.",
    "You were right about the banana bread, it worked.",
    "The kids down the road are having a water fight and it's chaos.",
    "I've got a stinking cold.",
    "Can't believe it's nearly the weekend.",
    "Today has lasted about a year.",
    "I'm writing all this down so I don't lose it.",
    "My brain is like a sieve lately.",
    "Right, where was I?",
    "Oh, and it's raining, of course.",
    "I've been on hold for forty minutes with no joy.",
    "We watched a film last night that was two hours too long.",
    "Life admin is never-ending.",
    "I love how quiet it is early on a Sunday.",
    "The garden is basically a jungle.",
    "I tried that sourdough thing and it came out like a brick.",
    "There's a wasp in here and I'm not coping.",
    "I've got a podcast on in the background, so forgive any typos.",
    "Honestly my to-do list has a to-do list.",
    "It's freezing in here.",
    "Had the best chips of my life at the seaside.",
    "My phone keeps dying at the worst moments.",
    "I've been trying to read more, with mixed results.",
    "Someone at the supermarket complimented my jumper, which made my day.",
    "I'm so behind on emails it's not even funny.",
    "I can hear the ice cream van, in March.",
    "I made soup and it's mostly pepper.",
    "My plants are thriving, which is a first.",
    "I've had three hours' sleep, so be gentle.",
    "Is it normal to be this tired on a Wednesday?",
    "I keep losing my keys.",
    "The house smells of toast, which is a good sign.",
    "We went to a car boot sale and came home with a lamp.",
    "It's blowing a gale out there.",
    "The light in here is gorgeous at this time of day.",
    "I read a whole book in one sitting.",
    "There's a film on later I've been wanting to see.",
    "I can't find my glasses and I'm wearing them, classic.",
    "I treated myself to a pastry, no regrets.",
    "Sorry if this is jumbled.",
    "I'll try to keep this short.",
    "Long day.",
    "What a week.",
    "Small win today.",
    "Nothing exciting to report otherwise.",
    "Otherwise all good here.",
    "Everything else is ticking along.",
    "I'm sitting in the garden with a blanket like a pensioner.",
    "Someone in my street has put their Christmas lights up already.",
    "I'm on my lunch break so I've got five minutes.",
    "The group chat has been unbearable today.",
    "I've been humming the same song since breakfast.",
    "I walked into a door frame earlier, don't ask.",
    "There are builders two doors down and the noise is unreal.",
    "I tried meditating and fell asleep.",
    "My nails are a disaster.",
    "Why is everything so expensive?",
    "I'm typing this while the pasta boils.",
    "There's a fox that sits on our wall every evening.",
    "The hairdryer sounds like a jet engine.",
    "I've got laundry everywhere.",
    "That last conversation really helped, thank you.",
    "Can I just say how useful this is?",
    "I don't know how I coped before writing things down.",
    "Hope that's all clear.",
    "Tell me if I'm rambling.",
    "I'll probably forget this otherwise.",
    "My memory is shocking.",
    "Keep this somewhere safe for me.",
    "That's the main thing.",
    "Anyway.",
    "Right, that's the important bit.",
    "I'm rushing, sorry.",
    "Half the street lost power for an hour last night.",
    "It snowed for about four minutes and everyone lost their minds.",
    "The sky was pink this morning.",
    "I watched the rugby and shouted at the telly.",
    "Spent the afternoon on a crossword I still haven't finished.",
    "We had a takeaway and regretted nothing.",
    "There was a queue out the door at the post office.",
    "Learning to make dumplings, they look like little hats.",
    "I've been trying to drink more water.",
    "I think I've pulled something in my shoulder.",
    "Everyone at work is off with the same bug.",
    "It's too hot to think.",
    "It's so dark at four o'clock, I hate it.",
    "The clock on the microwave is still an hour out.",
    "I bought a plant and named it Gerald.",
    "We're out of loo roll, classic.",
    "I forgot what I came upstairs for, twice.",
    "I've been on my feet all day.",
    "I love this time of year.",
    "Honestly, adulting is a scam.",
    "My inbox is a horror film.",
    "Not much else to say really.",
    "Tired but happy.",
    "I've just made a massive pot of chilli.",
    "The toaster set the smoke alarm off.",
    "It's chucking it down.",
    "The roads were icy this morning.",
    "Got soaked on the way home.",
    "I'm in a much better mood than yesterday.",
    "I can't decide what to have for dinner.",
    "Thinking of doing a big clear-out this weekend.",
    "There's a hedgehog in the garden!",
    "I've been binge-watching a baking show.",
    "I listened to a podcast about the Tudors on my walk.",
    "Honestly the weather can't make its mind up.",
    "I'm eating crisps for lunch like a student.",
    "We had friends round last night and I'm paying for it today.",
    "I lost an hour to scrolling, oops.",
    "Oh, and I found a tenner in my coat pocket.",
    "The birds are so loud this morning.",
    "I have no idea where the day went.",
    "My calendar looks like a game of Tetris.",
    "I should really be asleep.",
    "Honestly the state of my desk.",
    "I'm wrapped in a blanket with a hot water bottle.",
    "It feels like Monday even though it's Thursday.",
    "Had a lovely chat with the lady at the bakery.",
    "We played board games and nobody is speaking to each other.",
    "I burnt the toast, standard.",
    "My neck is stiff from sleeping funny.",
    "Anyway, enough moaning.",
    "I'm looking at the rain thinking about summer.",
    "Heard a great song on the radio and can't find it.",
    "Do you ever just stare at a wall for ten minutes?",
    "My hands are freezing.",
    "There's a cobweb in the corner I've named Steve.",
    "Honestly, send snacks.",
    "The traffic lights at the end of the road have been out for a week.",
    "I've got a mountain of ironing.",
    "I'm doing everything at half speed today.",
    "Feeling a bit flat today, to be honest.",
    "Had a good cry at an advert, as you do.",
    "It's very quiet in the house today.",
    "I'm celebrating surviving Monday.",
    "I've been on a video call all afternoon and my face hurts from smiling.",
    "I'm trying to be more organised, hence all this.",
    "This is mostly so future me knows.",
    "Writing it here so it doesn't live in my head.",
    "Hopefully that's useful context.",
    "Let me know if you need anything else from me.",
    "I'm not sure why I'm telling you this part.",
    "You don't need to do anything with that bit.",
    "Skip the rambling if you like.",
    "Ok, rant over.",
    "Apologies for the stream of consciousness.",
    "Honestly what would I do without lists.",
    "The last few days have been a blur.",
    "We're having a quiet one tonight.",
    "I might treat myself to a takeaway.",
    "It's the kind of day for soup.",
    "There's a bee stuck in the window.",
    "I've got the radio on and it's all adverts.",
    "The church bells are going mad.",
    "Someone nearby is cooking something amazing and I'm jealous.",
    "I've got glitter everywhere from a craft session.",
    "It's been ages since I had a lie-in.",
    "I stepped on a plug, the pain.",
    "Honestly, what even is time.",
    "I'm hiding from the ironing pile.",
    "All the leaves are turning, it's gorgeous.",
    "Went for a wander round the market.",
    "The bin men woke me up at six.",
    "I've had the same advert jingle stuck in my head for days.",
    "My hair has a mind of its own today.",
    "Got caught in a hailstorm, in May!",
    "I've been sorting photos on my laptop and got lost in them.",
    "The fire alarm test at work nearly gave me a heart attack.",
    "I'm not built for early mornings.",
    "I've got a really good feeling about this month.",
    "You'd laugh if you saw the state of me today.",
    "I've lost my reading glasses for the third time today.",
    "The wifi at the library is a joke.",
    "I had chips for lunch and zero regrets.",
    "There's a very confident squirrel in the garden.",
    "Honestly I could sleep for a week.",
    "I tried to assemble a shelf and somehow have spare screws.",
    "I keep putting off ringing my bank.",
    "I've got pins and needles in my foot.",
    "My umbrella turned inside out, obviously.",
    "Tea towels everywhere, don't ask.",
    "Is it me or has this month been really long?",
)

CHATTER_PARTS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (
        ("It's been ", "Honestly it's been ", "God, it's been ", "It has been "),
        ("chucking it down", "absolutely roasting", "freezing", "so grey", "weirdly warm", "blowing a gale", "drizzly"),
        (" all day.", " all week.", " since first thing.", " here.", "!", ", typical."),
    ),
    (
        ("I'm ", "Honestly I'm ", "God I'm ", "I am "),
        ("shattered", "knackered", "so tired", "running on fumes", "exhausted", "half asleep", "wiped out"),
        (" today.", " this week.", " after last night.", ".", " lol.", ", no idea why."),
    ),
    (
        ("We've been watching ", "I'm halfway through ", "I binged ", "We're hooked on ", "I bailed on "),
        (
            "The Traitors",
            "that Danish crime drama",
            "a documentary about deep sea fish",
            "old Gavin and Stacey episodes",
            "a really trashy reality show",
            "Slow Horses",
            "a true crime podcast",
            "a quiz show from the nineties",
        ),
        (".", " and it's brilliant.", " and it's a bit rubbish tbh.", " and I can't stop.", ", which was a mistake."),
    ),
    (
        ("Had ", "Made ", "Ordered ", "We had ", "I ate "),
        (
            "a massive curry",
            "a pasta bake",
            "fish and chips",
            "leftover lasagne",
            "cheese on toast",
            "a sad desk salad",
            "tacos",
            "a huge bowl of noodles",
            "a jacket potato",
        ),
        (" for lunch.", " last night.", " earlier.", " for tea.", ", so I'm happy."),
    ),
    (
        ("Can you ", "Could you ", "Would you be able to ", "Pls "),
        (
            "help me write a thank-you message",
            "suggest something easy for dinner",
            "give me a packing list at some point",
            "keep all this in one place",
            "recommend a podcast for a long walk",
            "help me plan the weekend",
            "find me a good banana bread recipe",
            "suggest a board game for six people",
        ),
        ("?", " later?", " when you get a sec?", ", no rush?"),
    ),
    (
        ("Ugh", "Honestly", "Lol", "Omg", "Right", "Phew", "Oh well", "Bloody hell", "Yay"),
        (
            ", what a day",
            ", what a week",
            ", life is chaos",
            ", the joys",
            ", can't complain",
            ", one of those days",
            "",
        ),
        (".", "!", "!!"),
    ),
    (
        ("Just got back from ", "I popped to ", "Spent ages at ", "Queued forever at ", "I nipped into "),
        (
            "the post office",
            "the garden centre",
            "B&Q",
            "the big Asda",
            "the library",
            "the market",
            "the shopping centre",
        ),
        (".", ", nightmare.", ", so busy.", ", the usual chaos.", " and bought nothing I went in for."),
    ),
    (
        ("My ", "Our "),
        ("laptop", "printer", "phone charger", "telly remote", "umbrella", "hairdryer", "toaster", "blender"),
        (
            " has vanished.",
            " is on its last legs.",
            " is making a funny noise.",
            " has a mind of its own.",
            " chose today to give up.",
        ),
    ),
)

CUE_RE = re.compile(
    r"\b(now|no longer|instead|chang\w*|mov(e|ed|es|ing)|switch\w*|swap\w*|updat\w*|actually|turns? out|turned out|"
    r"ended up|in the end|scratch|as of|start\w*|from (now|next|today|this|monday|september|january|april)|"
    r"going forward|any ?more|used to|new|done|cancel\w*|sorted|answer\w*|drop\w*|correction|wrong|"
    r"after all|retimed|pushed|brought forward|bumped|upped|cut|down to|up to|quit|gave up|given up|stopped|"
    r"came off|back on|re-subscribed|latest|different|replac\w*|out of date|ignore|misremembered|misread|"
    r"relocated|retrained|transferred|went (up|from|off)|gone (up|from|off)|was \S+ before|\(was|these days|"
    r"confirmed|fixed|repaired|packed in|joined|pulled out|got (moved|delayed|rescheduled|passed)|"
    r"rescheduled|delayed|left)\b",
    re.IGNORECASE,
)

# --------------------------------------------------------------------------------------------------------------
# Hand-written pairs, each written out on its own
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    relation: str
    frame: str
    kind_a: str = "fact"
    kind_b: str = "fact"
    hand: bool = False
    reworded: bool | None = None


def hand(frame: str, relation: str, a: str, b: str, kind_a: str = "fact", kind_b: str = "fact") -> Pair:
    return Pair(a, b, relation, frame, kind_a, kind_b, hand=True)


S, D, C, X, U = "supersedes", "duplicate", "contradicts", "complementary", "unrelated"

HAND: tuple[Pair, ...] = (
    # ---- supersedes
    hand(
        "cued-change",
        S,
        "The party for Mum's 60th is on Saturday the 14th, at the golf club.",
        "ok so scratch that, the party's on Sunday now because the golf club double booked us",
    ),
    hand(
        "negation",
        S,
        "I'm allergic to penicillin, found that out as a kid.",
        "turns out I'm not allergic to penicillin after all! the hospital did a proper test today and nothing happened",
    ),
    hand(
        "cued-change",
        S,
        "We're leaning towards the grey sofa from DFS.",
        "We ended up going with the blue sofa, the grey one showed every mark in the showroom.",
        "plan",
        "decision",
    ),
    hand(
        "cued-change", S, "My gym membership is £32 a month.", "the gym put their prices up, I'm paying £38 a month now"
    ),
    hand(
        "cued-change",
        S,
        "Dad's hip op is on the 3rd of March.",
        "Dad's hip operation got pushed back to the 21st of March, he's not thrilled about it.",
    ),
    hand(
        "cued-change",
        S,
        "I take my sertraline in the morning with breakfast.",
        "The GP said to take the sertraline at night from now on, since it makes me drowsy.",
    ),
    hand(
        "cued-change",
        S,
        "Our broadband is with Virgin Media.",
        "We switched the broadband over to Plusnet last week, way cheaper and so far no drop-outs.",
    ),
    hand(
        "cued-change",
        S,
        "Leo's swimming lessons are on Wednesdays after school.",
        "Leo's swimming has moved to Friday afternoons, the pool redid the whole timetable.",
    ),
    hand(
        "cued-change",
        S,
        "I drink about four coffees a day, which is probably too many.",
        "down to two coffees a day now, quite proud of myself",
    ),
    hand(
        "cued-change",
        S,
        "Biscuit eats the Harringtons dry food.",
        "We've switched Biscuit onto Lily's Kitchen, his tummy was playing up on the old stuff.",
    ),
    hand(
        "cued-change",
        S,
        "My sister lives in Leeds with her boyfriend.",
        "my sister used to live in Leeds but she's in Sheffield now, she went for a job at the hospital there",
    ),
    hand(
        "negation",
        S,
        "I'm vegetarian, have been since uni.",
        "I'm not vegetarian anymore, I've been eating fish and the odd bit of chicken since the summer.",
    ),
    hand(
        "loop-done",
        S,
        "need to renew my passport before the summer",
        "Passport renewal done, the shiny one arrived this morning!",
        "task",
    ),
    hand(
        "question-answered",
        S,
        "What time does the tip close on Sundays? Need to get rid of the old mattress.",
        "Found out the tip closes at 4pm on Sundays.",
        "open-question",
    ),
    hand(
        "question-answered",
        S,
        "should we go to Crete or Menorca this summer?",
        "We've decided on Menorca for the summer holiday, booked it last night.",
        "open-question",
        "decision",
    ),
    hand(
        "loop-done",
        S,
        "remind me to cancel the Disney+ free trial before the 20th",
        "cancelled the Disney+ trial, no charge went through",
        "task",
    ),
    hand(
        "loop-done",
        S,
        "I have to call British Gas about the boiler service.",
        "Forget the British Gas call, the landlord is arranging the boiler service himself.",
        "task",
    ),
    hand("cued-change", S, "My manager is Rachel.", "Rachel's left, so my manager is Omar now."),
    hand(
        "cued-change",
        S,
        "The recycling gets collected on Tuesdays.",
        "The council has moved our recycling collection to Thursdays, starting next month.",
    ),
    hand(
        "cued-change",
        S,
        "My physio appointment is Thursday at 2:15.",
        "Physio rang - they've rescheduled me to Friday at 9.",
    ),
    hand("cued-change", S, "my step goal is 8,000 a day", "bumped the step goal up to 10k from this week"),
    hand(
        "cued-change",
        S,
        "We're going to Cornwall for half term.",
        "Change of plan, half term is going to be a few days in Wales instead. The Cornwall cottage fell through.",
        "plan",
        "plan",
    ),
    hand(
        "cued-change",
        S,
        "Ava's piano teacher is Mrs Hughes.",
        "Ava has a different piano teacher as of this term, a lovely guy called Mr Adeyemi.",
    ),
    hand(
        "cued-change", S, "I pay £10.99 a month for Spotify.", "Spotify is £11.99 now, they sneaked the price up again."
    ),
    hand(
        "cued-change",
        S,
        "The kids' bedtime is 7:30 on school nights.",
        "We've pushed the kids' bedtime back to 8 on school nights, they were just lying awake anyway.",
    ),
    hand(
        "negation", S, "My brother smokes, which drives Mum mad.", "my brother quit smoking!! three months and counting"
    ),
    hand(
        "question-answered",
        S,
        "Is the dentist on Park Road taking NHS patients?",
        "Rang them - the Park Road dentist isn't taking NHS patients.",
        "open-question",
    ),
    hand(
        "negation",
        S,
        "Grandma still drives to the shops every day.",
        "Grandma's given up driving, she sold the car to a neighbour last week.",
    ),
    hand(
        "cued-change",
        S,
        "the Lisbon flight leaves at 7:10am",
        "Lisbon flight's been retimed to 9:35am, more sleep for us",
    ),
    hand(
        "negation",
        S,
        "I'm subscribed to the Guardian.",
        "i cancelled my guardian subscription, reading the free bits online",
    ),
    hand(
        "loop-done",
        S,
        "Need to find someone to look after Otis while we're in Spain.",
        "Otis is going to my cousin's while we're away, so that's sorted.",
        "task",
    ),
    hand(
        "cued-change",
        S,
        "We're expecting about 40 people at the BBQ.",
        "BBQ numbers are up to 55 now, everyone's bringing a plus one.",
    ),
    hand(
        "cued-change",
        S,
        "I'm on 50mg of sertraline.",
        "Saw the GP this morning. It was a good chat actually, she didn't rush me at all. "
        "She's upped the sertraline to 100mg. Fingers crossed it helps with the sleep.",
    ),
    hand(
        "cued-change",
        S,
        "Our summer holiday is the 12th to the 19th of July.",
        "Bit of a faff but we've had to shift the summer holiday to the first week of August, "
        "Chris couldn't get the time off.",
        "plan",
        "plan",
    ),
    # ---- duplicate
    hand("paraphrase", D, "My sister lives in Leeds.", "my sister is Leeds-based, has been for years"),
    hand(
        "restated",
        D,
        "The party for Mum's 60th is on Saturday the 14th.",
        "so the plan is still Saturday the 14th for mum's 60th",
    ),
    hand(
        "paraphrase", D, "I'm allergic to penicillin.", "Remember I can't have penicillin, it brings me out in hives."
    ),
    hand("paraphrase", D, "Our bins go out on a Tuesday.", "Tuesday is bin day for us."),
    hand(
        "cue-same-value",
        D,
        "my gym membership is £32 a month",
        "The gym is now £32 a month, same as before, they froze the price.",
    ),
    hand(
        "cue-same-value",
        D,
        "Leo's swimming lessons are on Wednesdays after school.",
        "Update on Leo's swimming: it's staying on Wednesdays after school next term.",
    ),
    hand("restated", D, "I take 50mg of sertraline.", "still on 50mg sertraline, the GP didn't touch the dose"),
    hand(
        "paraphrase",
        D,
        "We're painting the spare room sage green.",
        "The spare room walls are going to be sage green.",
        "plan",
        "plan",
    ),
    hand(
        "paraphrase",
        D,
        "My flight to Lisbon leaves at 7:10am.",
        "Lisbon flight: departs ten past seven in the morning.",
    ),
    hand(
        "task-restated",
        D,
        "need to book the car in for its MOT",
        "still haven't booked the MOT, must do it this week",
        "task",
        "task",
    ),
    hand(
        "question-restated",
        D,
        "What time does the tip close on Sundays?",
        "anyone know when the tip shuts on a Sunday? still need to find out",
        "open-question",
        "open-question",
    ),
    hand("paraphrase", D, "Biscuit is 4.", "Biscuit's four years old, the daft thing."),
    hand("paraphrase", D, "I'm in the office Tuesdays and Thursdays.", "My office days are Tuesday and Thursday."),
    hand(
        "cue-same-value",
        D,
        "My rent is £850 a month.",
        "As of this month my rent is still £850, the landlord didn't put it up.",
    ),
    hand("paraphrase", D, "Dad's birthday is on the 9th of June.", "Dad's birthday - June 9th, don't let me forget."),
    hand(
        "paraphrase",
        D,
        "I prefer aisle seats on planes.",
        "Always book me an aisle seat if you can, I hate being stuck by the window.",
        "preference",
        "preference",
    ),
    hand("paraphrase", D, "My manager is Rachel.", "I report to Rachel."),
    hand("cue-same-value", D, "We switched to Octopus for our energy.", "Our energy's with Octopus now."),
    hand(
        "restated",
        D,
        "Ava's piano exam is on the 22nd of May.",
        "By the way, the piano exam for Ava is 22 May.",
    ),
    hand(
        "paraphrase",
        D,
        "I'm training for the Great North Run.",
        "Great North Run training is my main focus at the moment.",
        "plan",
        "plan",
    ),
    hand(
        "paraphrase",
        D,
        "Maya's wedding is at a barn in Somerset.",
        "Maya's getting married at a barn venue down in Somerset.",
    ),
    hand(
        "restated",
        D,
        "the dishwasher is broken again",
        "dishwasher's still broken, it's been a week",
        "observation",
        "observation",
    ),
    hand(
        "task-restated",
        D,
        "remind me to send Grandma a card",
        "don't let me forget grandma's card!!",
        "task",
        "task",
    ),
    hand("paraphrase", D, "My car insurance is with Admiral.", "Admiral do my car insurance."),
    hand(
        "paraphrase",
        D,
        "We're getting a cockapoo puppy in March.",
        "Puppy arrives in March, a cockapoo!",
        "plan",
        "plan",
    ),
    hand(
        "restated",
        D,
        "My niece Isla goes to Hillside Primary.",
        "The school run was chaos this morning, roadworks everywhere. Isla goes to Hillside Primary, just to remind "
        "you. We made it with a minute to spare.",
    ),
    hand(
        "paraphrase",
        D,
        "I don't eat pork.",
        "Just a heads up for any recipes: no pork for me, please.",
        "preference",
        "preference",
    ),
    # ---- contradicts
    hand(
        "uncued-change",
        C,
        "The party for Mum's 60th is on Saturday the 14th.",
        "Mum's 60th is on Sunday the 15th, at the golf club.",
    ),
    hand("negation", C, "I'm allergic to penicillin.", "I'm not allergic to any antibiotics as far as I know."),
    hand(
        "uncued-change", C, "My sister lives in Leeds.", "my sister lives in Sheffield, about 20 mins from the centre"
    ),
    hand("uncued-change", C, "The recycling goes out on a Tuesday.", "Recycling is Thursdays round here."),
    hand("uncued-change", C, "I take 50mg of sertraline every morning.", "I'm on 100mg of sertraline."),
    hand("uncued-change", C, "My flight to Lisbon leaves at 7:10am.", "by the way my Lisbon flight is at 9:35am"),
    hand("uncued-change", C, "Our broadband is with Virgin Media.", "We get our broadband from BT."),
    hand("negation", C, "My brother smokes.", "My brother doesn't smoke, never has."),
    hand("uncued-change", C, "Leo's swimming lessons are on Wednesdays.", "also, Leo's swimming is on Fridays"),
    hand("uncued-change", C, "My gym membership is £32 a month.", "I pay £45 a month for the gym, which feels steep."),
    hand("uncued-change", C, "Dad's birthday is on the 9th of June.", "Dad's birthday is the 19th of June."),
    hand("uncued-change", C, "Biscuit weighs 14kg.", "biscuit is 11kg according to the vet"),
    hand(
        "uncued-change",
        C,
        "My dentist appointment is Tuesday at 10:30.",
        "My dentist appointment is on Wednesday at 10:30, I've put it in the calendar.",
    ),
    hand("uncued-change", C, "The MOT on the Corsa is due in April.", "Corsa's MOT is due in June."),
    hand(
        "uncued-change",
        C,
        "We're painting the living room sage green.",
        "We're painting the living room navy, it'll be so cosy.",
        "plan",
        "plan",
    ),
    hand("uncued-change", C, "I'm in the office Tuesdays and Thursdays.", "My office days are Mondays and Wednesdays."),
    hand(
        "negation", C, "Grandma drives, she's very proud of it.", "grandma doesn't drive, she gets the bus everywhere"
    ),
    hand(
        "uncued-change",
        C,
        "Our rent is £850 a month.",
        "ugh, rent is £925 a month and the shower still doesn't work properly",
    ),
    hand("uncued-change", C, "My manager is Rachel.", "My manager's called Omar, he's fine."),
    hand("negation", C, "Mum is coming to the christening.", "Mum isn't coming to the christening."),
    hand("negation", C, "Miso is microchipped.", "Miso isn't microchipped, I checked her paperwork."),
    hand("uncued-change", C, "Our Airbnb in Porto is £95 a night.", "The Porto Airbnb works out at £120 a night."),
    hand("uncued-change", C, "My brother works at the hospital.", "My brother works at the council offices."),
    hand("uncued-change", C, "We're expecting about 40 people at the BBQ.", "about 25 coming to the BBQ I think"),
    hand(
        "uncued-change",
        C,
        "Leo's bedtime is 7:30.",
        "Long day. Leo was a nightmare at the shops, full meltdown by the sweets. "
        "His bedtime is 8:30 so I've got a couple of hours to survive. Send wine.",
    ),
    hand(
        "negation",
        C,
        "I'm a member of the National Trust.",
        "we went to a stately home today, it was gorgeous. "
        "I'm not a National Trust member so it cost a fortune to get in",
    ),
    # ---- complementary
    hand("other-attribute", X, "My sister lives in Leeds.", "My sister works in Leeds too, at the uni."),
    hand(
        "other-subject",
        X,
        "I'm allergic to penicillin.",
        "My son's allergic to penicillin as well, runs in the family.",
    ),
    hand(
        "other-subject",
        X,
        "The recycling goes out on a Tuesday.",
        "The garden waste goes out on Tuesdays too, every other week.",
    ),
    hand(
        "other-subject",
        X,
        "Leo's swimming lessons are on Wednesdays.",
        "Ava's swimming lessons have moved to Wednesdays now as well.",
    ),
    hand("other-attribute", X, "Our broadband is with Sky.", "Our TV is with Sky as well."),
    hand(
        "other-attribute",
        X,
        "The party for Mum's 60th is on Saturday the 14th.",
        "Mum's 60th is at the golf club from 7pm, buffet and a DJ.",
    ),
    hand(
        "added-detail",
        X,
        "My flight to Lisbon leaves at 7:10am.",
        "My flight to Lisbon leaves at 7:10am from Gatwick North terminal.",
    ),
    hand(
        "other-subject",
        X,
        "I take 50mg of sertraline.",
        "I take 20mg of propranolol as well, but only before presentations.",
    ),
    hand(
        "other-subject",
        X,
        "My gym membership is £32 a month.",
        "Dev's gym membership is £32 a month as well, same gym.",
    ),
    hand(
        "other-subject", X, "My manager is Rachel.", "My partner's manager is also called Rachel, which gets confusing."
    ),
    hand(
        "loop-other-task",
        X,
        "need to book the car in for its MOT",
        "I need to get the tyres checked on the car too",
        "task",
        "task",
    ),
    hand(
        "question-other",
        X,
        "What time does the tip close on Sundays?",
        "Does the tip take old paint tins?",
        "open-question",
        "open-question",
    ),
    hand(
        "other-attribute",
        X,
        "We're painting the spare room sage green.",
        "We're getting sage green curtains for the spare room too.",
        "plan",
        "plan",
    ),
    hand("other-attribute", X, "I go swimming on Tuesdays.", "by the way I also do yoga on Tuesdays"),
    hand("other-attribute", X, "Biscuit eats Lily's Kitchen.", "Biscuit's vet appointment is next Thursday at 4."),
    hand(
        "added-detail",
        X,
        "Dad's birthday is on the 9th of June.",
        "Dad's birthday is the 9th of June, he'll be 70 this year!",
    ),
    hand(
        "other-subject",
        X,
        "the dishwasher is broken",
        "the tumble dryer's broken too, what a week",
        "observation",
        "observation",
    ),
    hand("other-subject", X, "Grandma doesn't drive anymore.", "Grandad still drives though, mostly to the golf club."),
    hand(
        "other-subject",
        X,
        "We're expecting about 40 people at the BBQ.",
        "We're expecting about 40 at the christening too.",
    ),
    hand(
        "added-detail",
        X,
        "Our Airbnb in Porto is £95 a night.",
        "Our Airbnb in Porto has a balcony over the river, can't wait.",
    ),
    hand(
        "other-subject",
        X,
        "I'm in the office Tuesdays and Thursdays.",
        "Chris is in the office Tuesdays and Thursdays now too, so we can go in together.",
    ),
    hand(
        "added-detail", X, "Mum is coming to the christening.", "Mum's bringing her famous trifle to the christening."
    ),
    hand(
        "loop-other-task",
        X,
        "order flowers for Mum's birthday",
        "also need to order a cake for Mum's birthday",
        "task",
        "task",
    ),
    hand(
        "question-other",
        X,
        "What time does my flight to Lisbon leave?",
        "What time does the Lisbon flight land?",
        "open-question",
        "open-question",
    ),
    hand("other-subject", X, "My brother lives in York.", "my brother's girlfriend lives in York too"),
    hand(
        "loop-other-task",
        X,
        "I need to renew my passport.",
        "Just renewed Ava's passport, took twenty minutes online.",
        "task",
    ),
    hand(
        "added-detail",
        X,
        "My niece Isla goes to Hillside Primary.",
        "Isla goes to Hillside Primary and she's in Mrs Patel's class.",
    ),
    # ---- unrelated
    hand(
        "topic-shift",
        U,
        "My dog Biscuit is booked in at the groomer's on Friday.",
        "Made a batch of chocolate biscuits for the bake sale, they went in minutes.",
    ),
    hand("topic-shift", U, "Our broadband is with Sky.", "the sky was unreal tonight, all pink and orange"),
    hand(
        "topic-shift",
        U,
        "I've got an Amazon Prime subscription.",
        "Watched a documentary about the Amazon rainforest, so depressing.",
    ),
    hand("topic-shift", U, "My phone contract is with Three.", "three more weeks until the holiday!!"),
    hand("topic-shift", U, "Our energy supplier is Octopus.", "The kids loved the octopus at the aquarium today."),
    hand("topic-shift", U, "My sister lives in Bath.", "Gave the dog a bath and now the bathroom is wrecked."),
    hand(
        "topic-shift",
        U,
        "I get my prescriptions from Boots.",
        "need new walking boots before the Lakes trip",
        "fact",
        "task",
    ),
    hand(
        "topic-shift",
        U,
        "My best friend Jordan is getting married in June.",
        "Watching a travel show about Jordan, Petra looks incredible.",
    ),
    hand("topic-shift", U, "I bank with Nationwide.", "We had a picnic on the river bank on Sunday, lovely."),
    hand("topic-shift", U, "The Corsa's MOT is due in March.", "March is always a nightmare at work, year-end."),
    hand("topic-shift", U, "My manager is Rachel.", "Rewatching Friends and Rachel is still my favourite."),
    hand(
        "topic-shift",
        U,
        "I take my coffee with oat milk.",
        "need to pause the milk delivery while we're away",
        "preference",
        "task",
    ),
    hand(
        "topic-shift",
        U,
        "The Apple Music family plan is £16.99 a month.",
        "Picked loads of apples at the farm today, crumble incoming.",
    ),
    hand("topic-shift", U, "Mum's 60th is at the Red Lion.", "The Lion King tickets went on sale, so expensive."),
    hand(
        "topic-shift",
        U,
        "The boiler engineer is coming on Thursday.",
        "Thursday's pub quiz was a disaster, we came last.",
    ),
    hand("topic-shift", U, "My flight to Lisbon leaves at 7:10am.", "Reading a novel set in Lisbon, it's gorgeous."),
    hand("topic-shift", U, "I'm allergic to cats.", "Cats the musical was on telly last night, absolute fever dream."),
    hand(
        "topic-shift", U, "The recycling goes out on a Tuesday.", "Taco Tuesday at the kids' school, they're buzzing."
    ),
    hand(
        "topic-shift",
        U,
        "My uncle Pete lives in Glasgow.",
        "I've been listening to a podcast about Glasgow's shipbuilding history.",
    ),
    hand(
        "topic-shift",
        U,
        "We're painting the living room navy.",
        "My grandad was in the navy, he's got amazing stories.",
        "plan",
    ),
    hand(
        "topic-shift",
        U,
        "I'm training for a half marathon.",
        "The Bake Off marathon on Sunday was exactly what I needed.",
        "plan",
    ),
    hand(
        "topic-shift",
        U,
        "remind me to book Biscuit's booster jab",
        "I booked a table at the Thai place for Friday, can't wait.",
        "task",
    ),
    hand(
        "topic-shift",
        U,
        "What time does the tip close on Sundays?",
        "Best tip I've had all year: freeze your bananas for smoothies.",
        "open-question",
    ),
    hand("topic-shift", U, "My rent is £850 a month.", "Rented a pedalo at the lake today, so much fun."),
    hand(
        "topic-shift",
        U,
        "My dentist appointment is Tuesday at 10:30.",
        "Tuesday's football was called off because of the rain.",
    ),
    hand(
        "topic-shift",
        U,
        "Our cat Miso eats Royal Canin.",
        "We had miso soup at the new ramen place, ten out of ten.",
    ),
    hand(
        "topic-shift",
        U,
        "I'm on the EE network.",
        "The EE shop in town has shut, it's a vape shop now, of course.",
    ),
    hand(
        "topic-shift",
        U,
        "My neighbour Mr Okafor lives at number 12.",
        "The number 12 bus was late again, I nearly missed the start of the film.",
    ),
)

# --------------------------------------------------------------------------------------------------------------
# Dressing a statement: chatty leads, hedges, endings, casing, typos, long turns
# --------------------------------------------------------------------------------------------------------------

CITY_ASIDES = (
    "there's a documentary about {c} on tonight",
    "I've been reading a crime novel set in {c}, it's really dark",
    "{c} were on the telly last night, what a match",
    "apparently {c} has the best chippy in the country according to some list",
    "someone on the radio was going on about the roadworks in {c}",
    "the {c} episode of that cooking show was great",
    "there was a quiz question about {c} and I got it wrong",
    "I'm doing a 1,000-piece jigsaw of the {c} skyline, send help",
)

ENDING_TEXTS = tuple(e for e, _ in ENDINGS)
ENDING_WEIGHTS = tuple(w for _, w in ENDINGS)


LABELLED_RE = re.compile(r"(todo|note|on my list|reminder|quick|update|small update|random|new info|latest)\b", re.I)


def chance(rng: random.Random, p: float) -> bool:
    return rng.random() < p


def make_chatter(rng: random.Random) -> str:
    if chance(rng, 0.55):
        text = rng.choice(CHATTER)
    else:
        parts = rng.choice(CHATTER_PARTS)
        text = "".join(rng.choice(p) for p in parts)
    if chance(rng, 0.15):
        text = text[0].lower() + text[1:]
    return text


def long_turn(fact: str, rng: random.Random) -> str:
    """Embed a fact sentence among 2-7 unrelated chatter sentences (a turn of 3-8 sentences)."""
    n = rng.choice((2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7))
    chatter: list[str] = []
    used: set[str] = set()
    while len(chatter) < n:
        line = make_chatter(rng)
        words = {w.strip(".,!?").lower() for w in line.split() if len(w.strip(".,!?")) >= 5}
        if not words & used:
            chatter.append(line)
            used |= words
    if fact[-1] not in ".!?":
        fact += "."
    pos = rng.randint(0, n)
    if pos > 0 and chance(rng, 0.8):
        fact = fact[0].upper() + fact[1:]
    return " ".join([*chatter[:pos], fact, *chatter[pos:]])


def add_typo(text: str, rng: random.Random) -> str:
    words = [w for w in TYPOS if re.search(rf"\b{w}\b", text)]
    if not words:
        return text
    word = rng.choice(words)
    return re.sub(rf"\b{word}\b", TYPOS[word], text, count=1)


def finish(
    core: str,
    rng: random.Random,
    *,
    lead_ok: bool = True,
    hedge_ok: bool = True,
    lead_p: float = 0.16,
    long_ok: bool = True,
) -> str:
    """Turn a bare statement into what a person would type: lead-in, ending, casing, typos, maybe a long turn."""
    text = core
    question = text.endswith("?")
    if LABELLED_RE.match(text):
        lead_ok = False
    if lead_ok and not question and chance(rng, lead_p):
        text = rng.choice(CHATTY_LEADS) + text
    elif hedge_ok and not question and chance(rng, 0.07):
        text = rng.choice(HEDGES) + text
    if not question and text[-1] not in ".!":
        text += rng.choices(ENDING_TEXTS, weights=ENDING_WEIGHTS)[0]
    if chance(rng, 0.04):
        text = text.lower()
    elif chance(rng, 0.72):
        text = text[0].upper() + text[1:]
    if chance(rng, 0.05):
        text = add_typo(text, rng)
    if long_ok and chance(rng, LONG_TURN_SHARE):
        text = long_turn(text, rng)
    return text


# --------------------------------------------------------------------------------------------------------------
# Statement builders
# --------------------------------------------------------------------------------------------------------------

USED_SUBJECTS: set[str] = set()
USED_ATTRIBUTES: set[str] = set()
SAME_VALUE_CUE_RE = re.compile(r"\b(now|moved to|got moved to)\b")
SAME_VALUE_CUE_BAD = ("wrong", "misremember", "oops", "correction", "instead", "new ", "left", "switched", "retrained")


def note(fam_key: str, s: Subj, item: str = "") -> None:
    USED_SUBJECTS.add(s.key if s.key not in ("I", "we") else "me")
    USED_ATTRIBUTES.add(fam_key + (":" + item if item else ""))


def two_values(f: Fam, s: Subj, rng: random.Random) -> tuple[str, str]:
    old, new = rng.sample(f.values_for(s), 2)
    return old, new


def state_core(f: Fam, s: Subj, v: str, rng: random.Random, tpl: str = "") -> tuple[str, str]:
    tpl = tpl or rng.choice(f.state)
    return render(tpl, s, rng, v=v), tpl


def wrapper_for(f: Fam, rng: random.Random, *, same: bool) -> Wrapper:
    options = [w for w in WRAPPERS if f.style in w.styles and (w.same_ok or not same)]
    return rng.choice(options)


def apply_wrapper(w: Wrapper, x: str, old: str, rng: random.Random) -> str:
    return w.pattern.replace("{X}", x).replace("{o}", old).replace("{d}", rng.choice(WHEN_PHRASES))


def same_value_cues(f: Fam) -> list[str]:
    return [
        t
        for t in f.cue
        if "{o}" not in t
        and t[:2] not in ("+|", "-|")
        and SAME_VALUE_CUE_RE.search(t)
        and not any(bad in t for bad in SAME_VALUE_CUE_BAD)
    ]


CORRECTION_WORDS = (
    "wrong",
    "oops",
    "correction",
    "actually",
    "turns out",
    "misre",
    "scratch",
    "ignore",
    "had it",
    "that's different",
    "update that",
    "it's changed",
    "changed it",
    "got changed",
    "been updated",
    "updated it",
    "out of date",
)


def is_correction(text: str) -> bool:
    return any(word in text for word in CORRECTION_WORDS)


def direction_ok(tpl: str, f: Fam, s: Subj, old: str, new: str) -> bool:
    """Cue frames marked ``+|`` only fit a rise, ``-|`` only a fall (value pools are in ascending order)."""
    if tpl[:2] not in ("+|", "-|"):
        return True
    values = f.values_for(s)
    if old not in values or new not in values:
        return False
    rise = values.index(new) > values.index(old)
    return rise == (tpl[0] == "+")


def cued_core(
    f: Fam,
    s: Subj,
    new: str,
    old: str,
    rng: random.Random,
    a_tpl: str,
    *,
    old_surface: str = "",
    corrections: bool = True,
) -> tuple[str, bool, bool]:
    """An update of ``f`` for ``s`` from ``old`` to ``new``: returns (text, chatty lead allowed, reworded).

    ``corrections=False`` keeps to cues of change ("now", "moved to"), leaving out cues that say an earlier
    statement was wrong or that point back at it ("please update that"): next to a statement about another subject
    or attribute, "sorry, I got that wrong" would read as retracting it.
    """
    new_s, old_s = surface(new, rng), old_surface or surface(old, rng)
    roll = rng.random()
    if not corrections and f.style == "fixed":
        return render(a_tpl, s, rng, v=new_s), True, False
    own = [t for t in f.cue if (corrections or not is_correction(t)) and direction_ok(t, f, s, old, new)]
    if roll < 0.19 and own:
        tpl = rng.choice(own).removeprefix("+|").removeprefix("-|")
        return render(tpl, s, rng, v=new_s, o=old_s), tpl.startswith("{"), True
    other = [t for t in f.state if t != a_tpl]
    reworded = roll < 0.24 and bool(other)
    base = rng.choice(other) if reworded else a_tpl
    options = [w for w in WRAPPERS if f.style in w.styles and (corrections or not is_correction(w.pattern))]
    if not options:
        return render(base, s, rng, v=new_s), True, reworded
    w = rng.choice(options)
    return apply_wrapper(w, render(base, s, rng, v=new_s), old_s, rng), w.pattern.startswith("{X}"), reworded


def pick_fam(rng: random.Random, families: Sequence[Fam] = ALL_FAMILIES) -> tuple[Fam, Subj]:
    f = rng.choice(families)
    s = rng.choice(f.pool)
    note(f.key, s)
    return f, s


def question_core(
    f: Fam, s: Subj, rng: random.Random, q: str = "", alts: tuple[str, str] | None = None
) -> tuple[str, str, tuple[str, str]]:
    """An open question about ``f`` of ``s``: (text as asked, the question template, the alternatives offered)."""
    q = q or rng.choice(f.quest)
    if alts is None:
        a1, a2 = rng.sample(f.values_for(s), 2)
        alts = (canon(a1), canon(a2))
    direct_t, emb_t = q.split("||")
    direct = render(direct_t, s, rng, a1=alts[0], a2=alts[1])
    emb = render(emb_t, s, rng, a1=alts[0], a2=alts[1])
    if chance(rng, 0.72):
        return rng.choice(QUESTION_LEADS) + direct, q, alts
    frame = rng.choice(
        (
            "do you know {e}?",
            "can you find out {e}?",
            "I need to find out {e}",
            "I can't remember {e}",
            "no idea {e} - need to check",
            "can you help me figure out {e}?",
        )
    )
    return frame.replace("{e}", emb), q, alts


def restated_question(f: Fam, s: Subj, rng: random.Random, q: str, alts: tuple[str, str]) -> str:
    direct_t, emb_t = q.split("||")
    pair = (alts[1], alts[0]) if chance(rng, 0.3) else alts
    direct = render(direct_t, s, rng, a1=pair[0], a2=pair[1])
    emb = render(emb_t, s, rng, a1=pair[0], a2=pair[1])
    return rng.choice(QUESTION_RESTATED).replace("{q}", direct).replace("{e}", emb)


def task_text(frames: Sequence[str], t: Task, rng: random.Random) -> str:
    frame = rng.choice(frames)
    return (
        frame.replace("{imp}", t.imp)
        .replace("{past}", t.past)
        .replace("{topic}", t.topic)
        .replace("{reason}", rng.choice(DROP_REASONS))
    )


def _words(text: str) -> set[str]:
    return {w.lower().removesuffix("'s") for w in text.split()} - {"my", "the", "our"}


def item_ok(x: str, s: Subj) -> bool:
    """False when the item names the subject itself (no "mum is coming to mum's 60th")."""
    return not any(_words(name) & _words(x) for name in s.names)


def binary_item(b: Binary, s: Subj, rng: random.Random) -> str:
    return rng.choice([x for x in b.items if item_ok(x, s)])


def binary_line(b: Binary, which: str, s: Subj, x: str, rng: random.Random) -> str:
    frames = {"aff": b.aff, "neg": b.neg, "negcue": b.negcue, "affcue": b.affcue}[which]
    return render(rng.choice(frames), s, rng, x=x)


# --------------------------------------------------------------------------------------------------------------
# Pair generators, one per frame
# --------------------------------------------------------------------------------------------------------------

Gen = Callable[[random.Random], Pair | None]


def gen_cued_change(rng: random.Random) -> Pair | None:
    f, s = pick_fam(rng)
    old, new = two_values(f, s, rng)
    old_s = surface(old, rng)
    a_core, a_tpl = state_core(f, s, old_s, rng)
    b_core, lead_ok, reworded = cued_core(f, s, new, old, rng, a_tpl, old_surface=old_s)
    a = finish(a_core, rng)
    b = finish(b_core, rng, lead_ok=lead_ok, hedge_ok=False)
    return Pair(a, b, S, "cued-change", f.kind, f.kind, reworded=reworded)


def gen_uncued_change(rng: random.Random) -> Pair | None:
    f, s = pick_fam(rng)
    old, new = two_values(f, s, rng)
    a_core, a_tpl = state_core(f, s, surface(old, rng), rng)
    roll = rng.random()
    if roll < 0.55:
        b_tpl = a_tpl
    elif roll < 0.87:
        b_tpl = rng.choice([t for t in (*f.state, *f.para) if t != a_tpl])
    else:
        b_tpl = rng.choice(f.detail)
    b_core = render(b_tpl, s, rng, v=surface(new, rng))
    return Pair(finish(a_core, rng), finish(b_core, rng), C, "uncued-change", f.kind, f.kind, reworded=b_tpl != a_tpl)


def gen_cue_same_value(rng: random.Random) -> Pair | None:
    f, s = pick_fam(rng)
    v = rng.choice(f.values_for(s))
    a_core, a_tpl = state_core(f, s, surface(v, rng), rng)
    own = same_value_cues(f)
    roll = rng.random()
    if roll < 0.2 and own:
        b_core, lead_ok, reworded = render(rng.choice(own), s, rng, v=surface(v, rng)), True, True
    else:
        other = [t for t in f.state if t != a_tpl]
        reworded = roll > 0.92 and bool(other)
        base = rng.choice(other) if reworded else a_tpl
        w = wrapper_for(f, rng, same=True)
        b_core = apply_wrapper(w, render(base, s, rng, v=surface(v, rng)), "", rng)
        lead_ok = w.pattern.startswith("{X}")
    b = finish(b_core, rng, lead_ok=lead_ok, hedge_ok=False)
    return Pair(finish(a_core, rng), b, D, "cue-same-value", f.kind, f.kind, reworded=reworded)


def gen_paraphrase(rng: random.Random) -> Pair | None:
    f, s = pick_fam(rng)
    v = rng.choice(f.values_for(s))
    a_v = surface(v, rng)
    b_v = surface(v, rng, avoid=a_v) if chance(rng, 0.4) else a_v
    if chance(rng, 0.75):
        a_tpl, b_tpl = rng.choice(f.state), rng.choice(f.para)
    else:
        a_tpl, b_tpl = rng.choice(f.para), rng.choice(f.state)
    a = finish(render(a_tpl, s, rng, v=a_v), rng)
    b = finish(render(b_tpl, s, rng, v=b_v), rng)
    return Pair(a, b, D, "paraphrase", f.kind, f.kind, reworded=True)


def gen_restated(rng: random.Random) -> Pair | None:
    f, s = pick_fam(rng)
    v = rng.choice(f.values_for(s))
    a_core, a_tpl = state_core(f, s, surface(v, rng), rng)
    other = [t for t in f.state if t != a_tpl]
    reworded = chance(rng, 0.12) and bool(other)
    b_core = render(rng.choice(other) if reworded else a_tpl, s, rng, v=surface(v, rng))
    led = chance(rng, 0.6)
    if led:
        b_core = rng.choice(RESTATE_LEADS) + b_core
    a = finish(a_core, rng)
    b = finish(b_core, rng, lead_ok=False, hedge_ok=not led)
    if a.lower().strip(".!") == b.lower().strip(".!"):
        b = long_turn(b, rng)
    return Pair(a, b, D, "restated", f.kind, f.kind, reworded=reworded)


def gen_added_detail(rng: random.Random) -> Pair | None:
    f, s = pick_fam(rng)
    v = rng.choice(f.values_for(s))
    a_core, _ = state_core(f, s, surface(v, rng), rng)
    b_core = render(rng.choice(f.detail), s, rng, v=surface(v, rng))
    return Pair(finish(a_core, rng), finish(b_core, rng), X, "added-detail", f.kind, f.kind)


def gen_other_subject(rng: random.Random) -> Pair | None:
    if chance(rng, 0.2):
        return other_subject_binary(rng)
    f = rng.choice([g for g in ALL_FAMILIES if len(g.pool) > 1])
    s1, s2 = rng.sample(f.pool, 2)
    note(f.key, s1)
    note(f.key, s2)
    common = [v for v in f.values_for(s1) if v in f.values_for(s2)]
    v1 = rng.choice(common) if common and chance(rng, 0.5) else rng.choice(f.values_for(s1))
    shared = v1 in f.values_for(s2) and chance(rng, 0.6)
    v2 = v1 if shared else rng.choice([v for v in f.values_for(s2) if v != v1])
    a_core, a_tpl = state_core(f, s1, surface(v1, rng), rng)
    roll = rng.random()
    if roll < 0.4:
        old = rng.choice([v for v in f.values_for(s2) if v != v2])
        b_core, lead_ok, _ = cued_core(f, s2, v2, old, rng, a_tpl, corrections=False)
    else:
        tpl = a_tpl if roll < 0.85 else rng.choice(f.state)
        b_core, lead_ok = render(tpl, s2, rng, v=surface(v2, rng)), True
    b = finish(b_core, rng, lead_ok=lead_ok)
    return Pair(finish(a_core, rng), b, X, "other-subject", f.kind, f.kind)


def other_subject_binary(rng: random.Random) -> Pair | None:
    b = rng.choice([g for g in BINARIES if len(g.pool) > 1])
    s1, s2 = rng.sample(b.pool, 2)
    x = binary_item(b, s1, rng)
    if not item_ok(x, s2):
        return None
    note(b.key, s1, x)
    note(b.key, s2, x)
    a_which = "aff" if chance(rng, 0.7) else "neg"
    b_which = rng.choice(("aff", "neg", "negcue", "affcue"))
    a = finish(binary_line(b, a_which, s1, x, rng), rng)
    bb = finish(binary_line(b, b_which, s2, x, rng), rng)
    return Pair(a, bb, X, "other-subject", b.kind, b.kind)


def build_other_attribute_pairs() -> list[tuple[Fam, Fam]]:
    pairs: list[tuple[Fam, Fam]] = []
    for f1 in ALL_FAMILIES:
        keys1 = {s.key for s in f1.pool}
        for f2 in ALL_FAMILIES:
            if f1 is f2 or f1.domain != f2.domain:
                continue
            if any(s.key in keys1 for s in f2.pool):
                pairs.append((f1, f2))
    return pairs


OTHER_ATTRIBUTE_PAIRS = build_other_attribute_pairs()


def gen_other_attribute(rng: random.Random) -> Pair | None:
    if chance(rng, 0.18):
        return other_attribute_binary(rng)
    f1, f2 = rng.choice(OTHER_ATTRIBUTE_PAIRS)
    keys2 = {s.key: s for s in f2.pool}
    s1 = rng.choice([s for s in f1.pool if s.key in keys2])
    s2 = keys2[s1.key]
    note(f1.key, s1)
    note(f2.key, s2)
    common = [v for v in f1.values_for(s1) if v in f2.values_for(s2)]
    if common and chance(rng, 0.7):
        v1 = v2 = rng.choice(common)
    else:
        v1, v2 = rng.choice(f1.values_for(s1)), rng.choice(f2.values_for(s2))
    a_core, _ = state_core(f1, s1, surface(v1, rng), rng)
    if chance(rng, 0.25):
        old = rng.choice([v for v in f2.values_for(s2) if v != v2])
        a_tpl = rng.choice(f2.state)
        b_core, lead_ok, _ = cued_core(f2, s2, v2, old, rng, a_tpl, corrections=False)
    else:
        b_core, lead_ok = state_core(f2, s2, surface(v2, rng), rng)[0], True
    b = finish(b_core, rng, lead_ok=lead_ok)
    return Pair(finish(a_core, rng), b, X, "other-attribute", f1.kind, f2.kind)


def other_attribute_binary(rng: random.Random) -> Pair | None:
    b = rng.choice([g for g in BINARIES if len(g.items) > 1])
    s = rng.choice(b.pool)
    x1, x2 = binary_item(b, s, rng), binary_item(b, s, rng)
    if x1 == x2:
        return None
    note(b.key, s, x1)
    note(b.key, s, x2)
    a = finish(binary_line(b, "aff" if chance(rng, 0.75) else "neg", s, x1, rng), rng)
    bb = finish(binary_line(b, rng.choice(("aff", "neg", "negcue", "affcue")), s, x2, rng), rng)
    return Pair(a, bb, X, "other-attribute", b.kind, b.kind)


def gen_negation(rng: random.Random, *, cued: bool) -> Pair | None:
    b = rng.choice(BINARIES)
    s = rng.choice(b.pool)
    x = binary_item(b, s, rng)
    note(b.key, s, x)
    flipped = chance(rng, 0.2)
    a_which = "neg" if flipped else "aff"
    b_which = ("affcue" if flipped else "negcue") if cued else ("aff" if flipped else "neg")
    a = finish(binary_line(b, a_which, s, x, rng), rng)
    bb = finish(binary_line(b, b_which, s, x, rng), rng, hedge_ok=not cued)
    return Pair(a, bb, S if cued else C, "negation", b.kind, b.kind, reworded=True)


def gen_negation_cued(rng: random.Random) -> Pair | None:
    return gen_negation(rng, cued=True)


def gen_negation_uncued(rng: random.Random) -> Pair | None:
    return gen_negation(rng, cued=False)


def gen_loop_done(rng: random.Random) -> Pair | None:
    t = rng.choice(TASKS)
    a = finish(task_text(TASK_FRAMES, t, rng), rng, hedge_ok=False)
    frames = TASK_DONE if chance(rng, 0.65) else TASK_DROPPED
    b = finish(task_text(frames, t, rng), rng, hedge_ok=False, lead_p=0.1)
    return Pair(a, b, S, "loop-done", "task", "fact")


def gen_task_restated(rng: random.Random) -> Pair | None:
    t = rng.choice(TASKS)
    a = finish(task_text(TASK_FRAMES, t, rng), rng, hedge_ok=False)
    b = finish(task_text(TASK_RESTATED, t, rng), rng, hedge_ok=False, lead_p=0.1)
    return Pair(a, b, D, "task-restated", "task", "task")


def gen_loop_other_task(rng: random.Random) -> Pair | None:
    t1 = rng.choice(TASKS)
    t2 = rng.choice([t for t in TASKS if t.group == t1.group and t != t1])
    a = finish(task_text(TASK_FRAMES, t1, rng), rng, hedge_ok=False)
    if chance(rng, 0.65):
        b = finish(task_text(TASK_FRAMES, t2, rng), rng, hedge_ok=False, lead_p=0.3)
        return Pair(a, b, X, "loop-other-task", "task", "task")
    b = finish(task_text(TASK_DONE, t2, rng), rng, hedge_ok=False, lead_p=0.3)
    return Pair(a, b, X, "loop-other-task", "task", "fact")


QUESTION_FAMILIES = tuple(f for f in ALL_FAMILIES if f.quest)


def gen_question_answered(rng: random.Random) -> Pair | None:
    f, s = pick_fam(rng, QUESTION_FAMILIES)
    q_text, q, alts = question_core(f, s, rng)
    by_canon = {canon(v): v for v in f.values_for(s)}
    chosen = "{a1}" in q and chance(rng, 0.8)
    v = by_canon[rng.choice(alts)] if chosen else rng.choice(f.values_for(s))
    tpl = rng.choice(f.para) if chance(rng, 0.25) else rng.choice(f.state)
    choice = "{a1}" in q
    lead = rng.choice(DECISION_LEADS if choice else ANSWER_LEADS)
    b_core = lead + render(tpl, s, rng, v=surface(v, rng))
    a = finish(q_text, rng, hedge_ok=False)
    b = finish(b_core, rng, lead_ok=False, hedge_ok=False)
    return Pair(a, b, S, "question-answered", "open-question", "decision" if choice else f.kind)


def gen_question_restated(rng: random.Random) -> Pair | None:
    f, s = pick_fam(rng, QUESTION_FAMILIES)
    q_text, q, alts = question_core(f, s, rng)
    same_attribute = [t for t in f.quest if "{a1}" in t] if "{a1}" in q else [t for t in f.quest if "{a1}" not in t]
    b_core = restated_question(f, s, rng, rng.choice(same_attribute), alts)
    a = finish(q_text, rng, hedge_ok=False)
    b = finish(b_core, rng, lead_ok=False, hedge_ok=False)
    return Pair(a, b, D, "question-restated", "open-question", "open-question")


def gen_question_other(rng: random.Random) -> Pair | None:
    f, s = pick_fam(rng, QUESTION_FAMILIES)
    q_text, _, _ = question_core(f, s, rng)
    roll = rng.random()
    others = [g for g in QUESTION_FAMILIES if g is not f and g.domain == f.domain and s in g.pool]
    if roll < 0.35 and others:
        g = rng.choice(others)
        note(g.key, s)
        b_core, kind_b = question_core(g, s, rng)[0], "open-question"
    else:
        s2 = rng.choice([t for t in f.pool if t != s])
        note(f.key, s2)
        if roll < 0.8:
            b_core, kind_b = question_core(f, s2, rng)[0], "open-question"
        else:
            b_core, kind_b = state_core(f, s2, surface(rng.choice(f.values_for(s2)), rng), rng)[0], f.kind
    a = finish(q_text, rng, hedge_ok=False)
    b = finish(b_core, rng, hedge_ok=False, lead_p=0.25)
    return Pair(a, b, X, "question-other", "open-question", kind_b)


# --------------------------------------------------------------------------------------------------------------
# Topic shifts
# --------------------------------------------------------------------------------------------------------------

TASK_DOMAINS = {
    "car": "cars",
    "house": "home",
    "health": "health",
    "pets": "pets",
    "money": "money",
    "travel": "travel",
    "kids": "kids",
    "admin": "admin",
    "gifts": "people",
    "work": "work",
    "hobbies": "activities",
}
STOPWORD_TEXT = """
    about after again also always and any are been before being but can does doing every for from going got had has
    have having here into its it's just last like made make more most much need next not off once one only other our
    out over really same should since some still such than that the their them then there these they this those
    through time today very want week weeks well were what when where which while will with would year your you're
    i'm we're she's he's they're i've we've month months day days night nights morning a-month thing things
"""
STOPWORDS = frozenset(STOPWORD_TEXT.split())


@dataclass(frozen=True)
class Said:
    text: str
    kind: str
    domain: str
    subject: str
    lead_ok: bool = True


SHORT_NOUNS = frozenset(
    (
        "mum",
        "dad",
        "son",
        "car",
        "van",
        "dog",
        "cat",
        "pig",
        "gym",
        "tap",
        "bbq",
        "mot",
        "isa",
        "jab",
        "hip",
        "loo",
        "fan",
        "pet",
        "bin",
        "tax",
        "eye",
        "flu",
        "hen",
        "gp",
        "tv",
        "cv",
        "op",
    )
)


GENERIC_NAME_WORDS = frozenset(("i", "d", "mr", "day", "book", "game", "pass"))


def _name_words() -> frozenset[str]:
    """Proper names in the subjects (any length) and a few short nouns, lower-cased."""
    pools = [f.pool for f in ALL_FAMILIES] + [b.pool for b in BINARIES]
    names = {name for pool in pools for s in pool for name in s.names}
    names.update(t.topic for t in TASKS)
    tokens = {w.strip(".,!?:;()-").removesuffix("'s") for name in names for w in name.split()}
    kept = {w.lower() for w in tokens if w and (w[0].isupper() or w.lower() in SHORT_NOUNS)}
    return frozenset(kept - GENERIC_NAME_WORDS)


NAME_WORDS = _name_words()


def content_words(text: str) -> set[str]:
    """Words that would tie two statements together: names of any length, other words of four letters or more."""
    words = {w.strip(".,!?:;()-").lower().removesuffix("'s") for w in text.split()}
    return {w for w in words if w in NAME_WORDS or (len(w) >= 4 and w not in STOPWORDS)}


def random_said(rng: random.Random) -> Said:
    roll = rng.random()
    if roll < 0.6:
        f, s = pick_fam(rng)
        old, new = two_values(f, s, rng)
        core, tpl = state_core(f, s, surface(new, rng), rng)
        lead_ok = True
        if roll < 0.12:
            core, lead_ok, _ = cued_core(f, s, new, old, rng, tpl)
        return Said(core, f.kind, f.domain, s.key, lead_ok)
    if roll < 0.72:
        b = rng.choice(BINARIES)
        s = rng.choice(b.pool)
        x = binary_item(b, s, rng)
        note(b.key, s, x)
        which = rng.choice(("aff", "aff", "neg", "negcue"))
        return Said(binary_line(b, which, s, x, rng), b.kind, b.domain, s.key)
    if roll < 0.87:
        t = rng.choice(TASKS)
        return Said(task_text(TASK_FRAMES, t, rng), "task", TASK_DOMAINS[t.group], "task:" + t.topic)
    f, s = pick_fam(rng, QUESTION_FAMILIES)
    return Said(question_core(f, s, rng)[0], "open-question", f.domain, s.key)


def gen_topic_shift(rng: random.Random) -> Pair | None:
    if chance(rng, 0.1):
        return shared_city_shift(rng)
    first, second = random_said(rng), random_said(rng)
    if first.domain == second.domain or first.subject == second.subject:
        return None
    if "I" in (first.subject, second.subject) and "we" in (first.subject, second.subject):
        return None
    if content_words(first.text) & content_words(second.text):
        return None
    a = finish(first.text, rng, lead_ok=first.lead_ok, hedge_ok=first.kind not in ("task", "open-question"))
    b = finish(second.text, rng, lead_ok=second.lead_ok, hedge_ok=second.kind not in ("task", "open-question"))
    return Pair(a, b, U, "topic-shift", first.kind, second.kind)


def shared_city_shift(rng: random.Random) -> Pair | None:
    """Two statements that share a place name but are about different things."""
    f = rng.choice([g for g in ALL_FAMILIES if g.vtype == "city"])
    s = rng.choice(f.pool)
    note(f.key, s)
    city = rng.choice(f.values)
    a = finish(state_core(f, s, city, rng)[0], rng)
    b = finish(rng.choice(CITY_ASIDES).replace("{c}", city), rng)
    return Pair(a, b, U, "topic-shift", f.kind, "fact")


# --------------------------------------------------------------------------------------------------------------
# Assembly
# --------------------------------------------------------------------------------------------------------------

PLAN: tuple[tuple[str, str, Gen, int], ...] = (
    (S, "cued-change", gen_cued_change, 300),
    (S, "negation", gen_negation_cued, 55),
    (S, "loop-done", gen_loop_done, 65),
    (S, "question-answered", gen_question_answered, 60),
    (D, "cue-same-value", gen_cue_same_value, 115),
    (D, "paraphrase", gen_paraphrase, 115),
    (D, "restated", gen_restated, 130),
    (D, "task-restated", gen_task_restated, 60),
    (D, "question-restated", gen_question_restated, 60),
    (C, "uncued-change", gen_uncued_change, 370),
    (C, "negation", gen_negation_uncued, 110),
    (X, "other-subject", gen_other_subject, 160),
    (X, "other-attribute", gen_other_attribute, 120),
    (X, "added-detail", gen_added_detail, 100),
    (X, "loop-other-task", gen_loop_other_task, 50),
    (X, "question-other", gen_question_other, 50),
    (U, "topic-shift", gen_topic_shift, 480),
)


def pair_key(p: Pair) -> tuple[str, str]:
    return (p.a.lower(), p.b.lower())


def build(rng: random.Random) -> list[Pair]:
    hand_counts = Counter((p.relation, p.frame) for p in HAND)
    pairs: list[Pair] = list(HAND)
    seen = {pair_key(p) for p in pairs}
    for relation, frame, gen, target in PLAN:
        need = target - hand_counts[(relation, frame)]
        made = 0
        while made < need:
            p = gen(rng)
            if p is None or pair_key(p) in seen or p.a == p.b:
                continue
            seen.add(pair_key(p))
            pairs.append(p)
            made += 1
    planned = {(r, f) for r, f, _, _ in PLAN}
    stray = [k for k in hand_counts if k not in planned]
    if stray:
        raise ValueError(f"hand-written pairs outside the plan: {stray}")
    return pairs


def to_line(n: int, p: Pair) -> str:
    row = {
        "id": f"{SOURCE}-{n:05d}",
        "a": p.a,
        "b": p.b,
        "relation": p.relation,
        "kind_a": p.kind_a,
        "kind_b": p.kind_b,
        "source": SOURCE,
        "frame": p.frame,
    }
    return json.dumps(row, ensure_ascii=False)


def template_count() -> int:
    fam_frames = sum(len(f.state) + len(f.para) + len(f.cue) + len(f.detail) + len(f.quest) for f in ALL_FAMILIES)
    bin_frames = sum(len(b.aff) + len(b.neg) + len(b.negcue) + len(b.affcue) for b in BINARIES)
    loop_frames = len(TASK_FRAMES) + len(TASK_RESTATED) + len(TASK_DONE) + len(TASK_DROPPED)
    question_frames = len(QUESTION_RESTATED) + len(ANSWER_LEADS) + 6
    return fam_frames + bin_frames + loop_frames + question_frames + len(WRAPPERS) + len(CITY_ASIDES)


def check_chatter() -> None:
    bad = [c for c in CHATTER if CUE_RE.search(c)]
    for parts in CHATTER_PARTS:
        bad += [w for part in parts for w in part if CUE_RE.search(w)]
    if bad:
        raise ValueError(f"chatter with update-cue words: {bad}")


def is_reworded(p: Pair) -> bool:
    """Whether the two sides use different sentence frames (a hand-written pair counts when a paraphrase)."""
    if p.reworded is not None:
        return p.reworded
    return p.frame == "paraphrase"


def report(pairs: Sequence[Pair]) -> None:
    counts = Counter((p.relation, p.frame) for p in pairs)
    for (relation, frame), n in sorted(counts.items()):
        print(f"{relation:14} {frame:20} {n:4}")
    print("relations:", dict(sorted(Counter(p.relation for p in pairs).items())))
    sentences = re.compile(r"(?<=[.!?])\s+")
    long_share = sum(len(sentences.split(t.strip())) >= 3 for p in pairs for t in (p.a, p.b)) / (2 * len(pairs))
    retiring = [p for p in pairs if p.relation in (S, D)]
    reworded = sum(is_reworded(p) for p in retiring) / len(retiring)
    print(f"hand-written pairs: {len(HAND)}; templates: {template_count()}; long-turn share ~{long_share:.2f}")
    print(f"reworded share of supersedes/duplicate pairs: {reworded:.2f}")
    print(f"subjects used: {len(USED_SUBJECTS)}; attributes used: {len(USED_ATTRIBUTES)}")


def main() -> None:
    check_chatter()
    rng = random.Random(SEED)
    pairs = build(rng)
    rng.shuffle(pairs)
    lines = [to_line(n, p) for n, p in enumerate(pairs, start=1)]
    OUT_PATH.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report(pairs)
    print(f"wrote {len(lines)} pairs to {OUT_PATH}")


if __name__ == "__main__":
    main()
