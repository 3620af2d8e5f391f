"""SPEC R-H7 and R-H8 held structurally, whatever the judge says (review.judges.guard).

The judge here is one that always answers "supersedes" with near certainty — the worst judge a
deployment could configure — so every assertion is about what the structure alone guarantees.
"""

from __future__ import annotations

import pytest

from review.judges import Pair, Verdict
from review.judges.guard import guarded_judge
from review.judges.structure import analyse


class Overconfident:
    name = "overconfident"

    def __init__(self, relation: str = "supersedes") -> None:
        self.relation = relation
        self.calls = 0

    def judge(self, pair: Pair) -> Verdict:
        self.calls += 1
        return Verdict(self.relation, 0.99, "always sure")


def guarded(a: str, b: str, relation: str = "supersedes", kind_a: str = "fact") -> Verdict:
    return guarded_judge(Overconfident(relation), Pair(a=a, b=b, kind_a=kind_a))


# The pairs of issue 15's "Why", and their like: two facts each, never one replacing the other.
OTHER_SUBJECT = [
    ("Hana's favorite cuisine is Peruvian.", "Zoe's favorite cuisine is Peruvian."),
    ("Rupert drives a Volvo XC60.", "Victor drives a Volvo XC60."),
    (
        "The billing service's primary database is db-billing-1 according to the last review.",
        "The search service's primary database is db-billing-1 since the migration.",
    ),
    ("The free tier rate limit is 100 requests per minute.", "The pro tier rate limit is 1000 requests per minute."),
    ("The staging PostgreSQL runs version 15.", "The production PostgreSQL now runs version 16."),
    ("Acme Corp's account manager is Dana Whitfield.", "Globex's account manager is Dana Whitfield."),
    ("The checkout API timeout is 30 seconds.", "The login API timeout is now 10 seconds."),
    ("Ticket OPS-1412 is assigned to Bob.", "Ticket OPS-1519 is assigned to Bob."),
    ("The billing service deploys on Fridays.", "The search service deploys on Fridays."),
    ("Hana prefers Peruvian food.", "Zoe now prefers Peruvian food."),
    ("My sister's birthday is May 3.", "My brother's birthday is May 3."),
    # Found by the whole-store evaluation (evaluation/): the subject after the verb.
    ("The carrier for order 88213 is FedEx.", "Update: the carrier for order 93021 is FedEx."),
    ("DHL is delivering order 88290.", "Update: DHL is delivering order 93021."),
    ("When we get coffee, Liam has a double espresso.", "Update: when we get coffee, Yuki has a double espresso."),
    ("Carla is on call for the gateway service.", "Carla is now on call for the notifications service."),
    ("You can reach Kenji on +351 916 703 577.", "Update: you can reach Arjun on +351 917 880 916."),
]
OTHER_ATTRIBUTE = [
    ("Priya lives in Oslo.", "Priya works in Oslo."),
    ("The standup is at 10:00.", "The standup moved to Tuesday."),
    ("The eye exam is at the downtown office.", "As of September 14, the eye exam is on Friday at 16:15."),
    ("Order 93021 is being shipped to the office.", "Starting May 21, order 93021 is marked as delivered."),
]
UNRELATED = [
    (
        "I just got back from a trip to Asia and I'm still dreaming about the food. Can you suggest some "
        "must-try dishes in Japan and Korea for my next visit?",
        "I'm planning a dinner party for eight this weekend and need recipe ideas. By the way, I just signed "
        "up for Japanese cooking classes, another thing to fit into my schedule!",
    ),
    (
        "I'm training for a 100-mile ultramarathon next spring and need a weekly plan that builds mileage safely.",
        "By the way, I just ran my first 5K in 27 minutes! Any tips for recovering after a race?",
    ),
    ("The deploy window is Monday 10:00 UTC.", "My cat is called Miso."),
]


@pytest.mark.parametrize(("older", "newer"), OTHER_SUBJECT + OTHER_ATTRIBUTE)
def test_distinguishable_facts_are_complementary_and_the_judge_is_not_asked(older, newer):
    judge = Overconfident()

    verdict = guarded_judge(judge, Pair(a=older, b=newer))

    assert (verdict.relation, verdict.resolvable, judge.calls) == ("complementary", False, 0)
    assert verdict.rationale.startswith("Structure: ")


@pytest.mark.parametrize(("older", "newer"), UNRELATED)
def test_unrelated_statements_are_unrelated_even_with_chatty_cues(older, newer):
    verdict = guarded(older, newer)

    assert (verdict.relation, verdict.resolvable) == ("unrelated", False)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("The dentist appointment is on Thursday at 14:00.", "The dentist appointment is Friday at 14:00."),
        ("Priya lives in Oslo.", "Priya lives in Bergen."),
        ("The deploy window is Monday 10:00 UTC.", "The deploy window is Monday 11:00 UTC."),
    ],
)
def test_two_values_without_a_cue_are_a_contradiction_not_a_supersede(older, newer):
    verdict = guarded(older, newer)

    assert (verdict.relation, verdict.resolvable) == ("contradicts", False)
    assert "R-H8" in verdict.rationale


def test_a_narrower_subject_is_never_auto_resolved():
    verdict = guarded(
        "Dentist appointment is on Thursday at 14:00.", "The downtown dentist appointment is now Friday at 14:00."
    )

    assert verdict.resolvable is False


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Priya lives in Oslo.", "Priya now lives in Bergen."),
        ("The standup is on Monday at 10:00.", "The standup moved to Tuesday at 10:00."),
        ("The standup is on Mondays.", "As of May, the standup is on Tuesdays."),
        ("We use Redis for sessions.", "We no longer use Redis for sessions; we switched to Memcached."),
        ("I have 17 postcards in my collection.", "I now have 25 postcards in my collection."),
    ],
)
def test_a_cued_update_of_the_same_slot_may_auto_resolve(older, newer):
    verdict = guarded(older, newer)

    assert (verdict.relation, verdict.resolvable) == ("supersedes", True)


# A reworded attribute, but the newer names the older's value as the one it replaces, about the
# older's own subject: one slot (structure._old_value_named).
OLD_VALUE_NAMED = [
    (
        "The gateway service keeps its logs for 14 days.",
        "The gateway service's log retention changed from 14 days to 30 days.",
    ),
    ("Farid owns ticket DATA-733.", "Ticket DATA-733 was reassigned from Farid to Elena."),
    (
        "The qa environment runs Kubernetes 1.30.",
        "The qa environment's Kubernetes version changed from Kubernetes 1.30 to Kubernetes 1.28.",
    ),
    (
        "The insurance of the old Volvo is with Allianz.",
        "The insurance of the old Volvo is with a local broker; it used to be Allianz.",
    ),
    ("Cedar Health has 40 seats.", "Correction: Cedar Health's seat count is 75 now, not 40."),
]
# The old value named, but about another subject, a narrower one, or the older's predicate.
OLD_VALUE_NAMED_ELSEWHERE = [
    (
        "Ravi prefers to be contacted by email.",
        "Arjun's preferred contact channel is no longer email; it is WhatsApp instead.",
    ),
    ("Nadia works at Tidewater.", "Chloe works at Orbital Foods; it used to be Tidewater."),
    (
        "The haircut is with Dr. Okafor.",
        "The vaccination appointment's practitioner is no longer Dr. Okafor; it is Mr. Novak instead.",
    ),
    (
        "My half marathon personal best is 2h 27m 20s.",
        "Jasper knocked the half marathon best down from 2h 27m 20s to 2:07:55.",
    ),
    ("Order 93021 is being shipped to the office.", "Order 93021's status switched from shipped to returned."),
    (
        "The insurance of the camper is with Allianz.",
        "The insurance of the old Volvo is with a local broker; it used to be Allianz.",
    ),
    ("Hana's favorite cuisine is Peruvian.", "Hana's sister's favorite cuisine is Thai, not Peruvian any more."),
    ("The Berlin team has 5 people.", "The team moved from Berlin to Munich."),
]


@pytest.mark.parametrize(("older", "newer"), OLD_VALUE_NAMED)
def test_a_reworded_update_that_names_the_old_value_may_auto_resolve(older, newer):
    verdict = guarded(older, newer)

    assert (verdict.relation, verdict.resolvable) == ("supersedes", True)
    assert analyse(older, newer).anchored is True


@pytest.mark.parametrize(("older", "newer"), OLD_VALUE_NAMED_ELSEWHERE)
def test_naming_the_old_value_of_another_subject_settles_nothing(older, newer):
    verdict = guarded(older, newer)

    assert verdict.resolvable is False
    assert analyse(older, newer).anchored is False


def test_a_cue_with_the_same_value_is_a_duplicate():
    verdict = guarded("The standup is at 10:00.", "The standup is now at 10:00.")

    assert (verdict.relation, verdict.resolvable) == ("duplicate", True)


def test_a_duplicate_needs_the_same_value():
    verdict = guarded("The standup is at 10:00.", "The standup is at 10:30.", relation="duplicate")

    assert (verdict.relation, verdict.resolvable) == ("contradicts", False)


def test_a_loop_outcome_is_evidence_but_only_for_the_same_loop():
    done = guarded("Task: book the vet for Biscuit.", "Booked the vet for Biscuit for Tuesday.", kind_a="task")
    other = guarded("Task: book the vet for Biscuit.", "Booked the vet for Miso.", kind_a="task")

    assert (done.relation, done.resolvable) == ("supersedes", True)
    assert (other.relation, other.resolvable) == ("complementary", False)


def test_a_chatty_phrase_is_no_update_cue():
    structure = analyse(
        "I added 17 postcards to my collection since I started collecting again.",
        "By the way, I just realised I've added another 25 postcards to my collection since I started again.",
    )

    assert structure.update_cue is False


# Found on the independently written labelled sources (notes, ops, chat) and the whole store once
# every write met its most similar memories without a distance window: a cued newer statement
# that changes what *which thing* is meant, not the value of one thing.
NOT_ONE_SLOT = [
    # an owner named with 's, wherever it stands
    ("We host Northwind's data in eu-west-1.", "We now host Initech's data in eu-west-1."),
    (
        "We're going with Kafka for auth-proxy's job queue.",
        "Effective June 3, we're going with Pub/Sub for auth-service's job queue.",
    ),
    # a scope word in one statement only
    ("We're on Postgres 16.4 in dev.", "Effective June 3, we're on Postgres 16.4 in demo."),
    (
        "We plan to delete new-checkout-eu from the code on May 28.",
        "Updated: we plan to delete new-checkout from the code on June 18.",
    ),
    # a named or typed value stays while the words around it change
    ("I see Dr. Okafor for the haircut.", "As of May 27, I see Dr. Okafor for the tax advisor meeting."),
    (
        "I have the vaccination appointment on Wednesday at 9:00.",
        "As of July 14, I have the dentist appointment on Friday at 9:00.",
    ),
    (
        "I'm putting £400 a month towards the house deposit.",
        "Update: I'm putting £400 a month towards the wedding fund.",
    ),
    # an identifier swapped together with another value
    ("We turn off v1 of the public API on July 2.", "We turn off v2 of the public API on May 21 instead of July 2."),
    # the older's own change verb names an attribute of its own
    (
        "The gym near the office changed its opening hours for the summer.",
        "The gym near the office has a sign saying it will be replaced soon.",
    ),
]


@pytest.mark.parametrize(("older", "newer"), NOT_ONE_SLOT)
def test_a_cue_does_not_settle_a_pair_that_may_be_two_things(older, newer):
    verdict = guarded(older, newer)

    assert verdict.resolvable is False


def test_nothing_denies_what_the_other_states():
    assert analyse("OPS-1412 is blocked.", "Nothing is blocking OPS-1412.").negation_flip is True
    assert guarded("OPS-1412 is blocked.", "Nothing is blocking OPS-1412.", relation="duplicate").resolvable is False


def test_a_range_restated_is_no_update_cue():
    structure = analyse(
        "No deploys to the reporting ETL from Fri 18:00 to Mon 08:00 UTC.",
        "No deploys to the reporting ETL from Fri 18:00 UTC to Mon 08:00 UTC, hotfixes need VP approval.",
    )

    assert structure.update_cue is False


def test_an_answer_to_a_which_question_names_what_was_asked():
    vague = guarded("Which locker will order 91305 go to?", "Order 91305 goes to the office.", kind_a="open-question")
    named = guarded("Which hotel is Sana staying at?", "Sana is staying at the Almada Inn.", kind_a="open-question")

    assert vague.resolvable is False
    assert (named.relation, named.resolvable) == ("supersedes", True)


# Found by scanning every ruling of the structure over the labelled pairs and the generated
# store against their ground truth (each would have retired a distinguishable fact).
@pytest.mark.parametrize(
    ("older", "newer", "kind_a"),
    [
        # the word naming which appointment, replaced right before it
        ("TODO: confirm the physio appointment.", "Confirmed the dentist appointment today.", "task"),
        # any name answers "who?", about something else here
        (
            "Question: who signs the contract at Acme Foods?",
            "Acme Foods uses Okta for single sign-on.",
            "open-question",
        ),
        # "May 9" is a date, not the modal verb: a price and a date are two attributes
        ("Order 88213 cost €24.90.", "Order 88213 was pushed back to May 9.", "fact"),
    ],
)
def test_rulings_that_would_retire_another_thing(older, newer, kind_a):
    verdict = guarded(older, newer, kind_a=kind_a)

    assert verdict.resolvable is False


@pytest.mark.parametrize(
    ("older", "newer", "kind_a"),
    [
        # the task's own verb, in two forms the stemmer keeps apart
        ("Task: reproduce ticket SUP-1183 locally.", "Done: reproduced ticket SUP-1183 locally.", "task"),
        # a change verb carried by "has been" is the predicate, not "has"
        ("Ines's coffee order is an oat latte.", "Ines's coffee order has been changed to a cortado.", "fact"),
        # no predicate the parser knows ("weighs", "renews"), and nothing but the amount differs
        ("Olive weighs 9 kg.", "Starting April 9, Olive weighs 23 kg.", "fact"),
        (
            "Harbor Media's contract renews in February.",
            "Starting October 14, Harbor Media's contract renews in July.",
            "fact",
        ),
        # the cue in the clause after the semicolon speaks of the same statement
        (
            "The checkout service is written in Go.",
            "The checkout service is written in Rust; it used to be TypeScript.",
            "fact",
        ),
    ],
)
def test_plain_updates_the_structure_used_to_miss(older, newer, kind_a):
    verdict = guarded(older, newer, kind_a=kind_a)

    assert (verdict.relation, verdict.resolvable) == ("supersedes", True)


def test_only_amounts_differing_without_a_cue_is_still_a_contradiction():
    verdict = guarded("Olive weighs 9 kg.", "Olive weighs 23 kg.")

    assert (verdict.relation, verdict.resolvable) == ("contradicts", False)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "Log retention for the payments service is 7 days.",
            "Still true: log retention for the payments service is 7 days.",
        ),
        ("Ticket SUP-1207 is blocked.", "Reminder to self: ticket SUP-1207 is blocked."),
        ("My flu jab is booked for the 3rd at 1:20pm.", "Quick update - my flu jab is booked for the 3rd at 1:20pm."),
    ],
)
def test_a_restatement_behind_a_discourse_marker_is_a_duplicate(older, newer):
    verdict = guarded(older, newer, relation="duplicate")

    assert (verdict.relation, verdict.resolvable) == ("duplicate", True)
