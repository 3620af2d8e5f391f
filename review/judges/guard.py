"""SPEC R-H7 and R-H8 around any judge: the structure of a pair decides what a verdict may do.

The guard reads the pair's structure first (review.judges.structure) and only then, if the
structure leaves the question open, asks the configured judge — the local model or an
OpenAI-compatible endpoint alike:

* Different subjects, or the same subject with a different attribute, are two facts: the answer
  is ``complementary`` (``unrelated`` when the two share no words), and the model is not asked.
* A ``supersedes`` verdict without update evidence in the newer statement (a cue, or a loop
  outcome) is a ``contradicts``: two values for one slot with nothing saying which is current.
* A ``duplicate`` verdict whose values differ is a ``contradicts`` (a ``supersedes`` with
  evidence); a ``supersedes`` verdict whose value did not change is a ``duplicate``.
* Only a pair whose subject and attribute are structurally the same may be auto-resolved
  (``Verdict.resolvable``): ``supersedes`` with evidence and a changed value, ``duplicate`` with
  the same value. Anything the structure is unsure of can at most be queued.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path

from review.judges.base import Judge, Pair, Verdict
from review.judges.structure import DIFFERENT, NEGATED, SAME, UNRELATED, Structure, analyse

CALIBRATION_FILE = Path(__file__).with_name("local_judge.json")


@cache
def structural_confidence() -> dict[str, float]:
    """How often each structural ruling names the labelled relation, over every labelled source
    (``./zm train`` measures it and stores it beside the local judge's weights)."""
    try:
        measured = json.loads(CALIBRATION_FILE.read_text()).get("structural_confidence", {})
    except (OSError, ValueError):
        measured = {}
    return {"unrelated": 0.9, "complementary": 0.9, "supersedes": 0.9, "duplicate": 0.9, **measured}


def may_act(structure: Structure) -> bool:
    """Whether the structure gives positive evidence that the two statements state one slot of
    one subject — the only pairs hygiene may retire or queue (R-H7, R-H9). A restatement (the
    same words, give or take one) is one; so is a plain slot that both fact sentences *state*
    (neither asks nor requests: a chat turn's questions hold no value) with the same subject and
    attribute and sentences that mostly agree. An open loop keeps its own rule: the same loop, or
    one reworded that swaps no name. Anything else — a long, many-topic message whose shared
    sentence is only a guess, a reworded pair the structure cannot align — is neither retired nor
    queued; the writer still sees it in ``similar_existing`` and can declare."""
    if structure.restated:
        return True
    if structure.loop_older:
        # An open loop is disputed by its outcome, or by the same loop written again; a fact
        # about the same ticket that answers nothing ("what is the root cause of OPS-4502?" /
        # "OPS-4502 is assigned to Elena") is another fact beside it.
        # The outcome must name its loop, the same loop as the structure reads it ("Task: fix the
        # invoice address for Bluefin" is not closed by "Done: scheduled a review with Bluefin");
        # a loop written again is a plain slot of two loops.
        return structure.subject == SAME and (structure.loop_outcome or (structure.loop_newer and structure.same_slot))
    if not (structure.stated and structure.same_slot and structure.subjects_named):
        return False
    if structure.sentences == 1 or structure.anchored:
        return True
    if structure.fact_words < 3:
        return False
    # A long message: the sentence it shares with the other is one of several, and two chat turns
    # repeat asides in passing ("my budget is tiny" / "my budget is small") as often as they
    # restate a fact. One slot is read there only when the value changed is a typed value
    # (a number, a date, a name: "I've added 17 postcards" / "I've added 25 postcards") or is denied.
    return structure.value == NEGATED or (structure.value == "changed" and structure.typed_change)


def structural_verdict(structure: Structure) -> Verdict | None:
    """The verdict the structure alone settles (R-H7), or None when a judge must look."""
    if structure.subject == UNRELATED:
        return Verdict(
            "unrelated",
            structural_confidence()["unrelated"],
            f"Structure: {structure.detail}.",
            resolvable=False,
            queueable=False,
        )
    if structure.distinguishable:
        what = "different subjects" if structure.subject == DIFFERENT else "same subject, different attribute"
        return Verdict(
            "complementary",
            structural_confidence()["complementary"],
            f"Structure: {what} ({structure.detail}); both facts stand.",
            resolvable=False,
            queueable=False,
        )
    return None


def structural_resolution(structure: Structure) -> Verdict | None:
    """The local judge's own ruling where the structure is plain (review.judges.local): the same
    subject and attribute, and either a new value with update evidence (``supersedes``) or the
    same value with nothing added or dropped (``duplicate``). Its confidence is how often that
    ruling named the labelled relation on pairs of sources it was not designed on."""
    if structure.subject != SAME or structure.attribute == DIFFERENT:
        return None
    guess = "supersedes" if structure.evidence and structure.value != SAME else "duplicate"
    verdict = reconcile(Verdict(guess, 1.0, ""), structure)
    if not verdict.resolvable or verdict.relation != guess:
        return None
    if guess == "supersedes":
        why = "a new value with an update cue" if structure.update_cue else "the loop it opened is closed"
    else:
        why = "the same value, restated"
    return Verdict(
        guess,
        structural_confidence()[guess],
        f"Structure: same subject and attribute; {why} ({structure.detail}).",
        resolvable=True,
    )


def reconcile(verdict: Verdict, structure: Structure) -> Verdict:
    """The judge's verdict held to what the structure shows (R-H8)."""
    relation, notes = verdict.relation, []
    if relation == "supersedes" and structure.value == SAME and not structure.loop_outcome:
        relation = "duplicate"
        notes.append("the value did not change, so it is a restatement")
    elif relation == "supersedes" and not structure.evidence:
        relation = "contradicts"
        notes.append("no update cue in the newer statement and no loop outcome (R-H8), so it is queued")
    elif relation == "duplicate" and structure.value not in (SAME, "added"):
        relation = "supersedes" if structure.evidence else "contradicts"
        notes.append(f"the values differ ({structure.detail})")
    # Only a plain slot is settled without a person, and only when nothing casts doubt on it —
    # or a plausible one, when the local judge's model and the structure agree on it.
    resolvable = (
        (structure.same_slot or (verdict.checked and structure.plausible_slot))
        and not structure.doubt
        and may_act(structure)
    )
    if relation == "supersedes":
        # A new value (or a denial, or a closed loop) — not the old value with more detail, nor
        # with less ("is being shipped to the office" / "is now shipped" says something else).
        new_value = structure.value in ("changed", NEGATED) or structure.loop_outcome
        resolvable = resolvable and structure.evidence and new_value
    elif relation == "duplicate":
        # The same value, and nothing either statement says that the other does not: retiring the
        # older then loses nothing.
        resolvable = resolvable and structure.value == SAME and structure.extra_words <= 1
    else:
        resolvable = False
    if structure.subject != SAME and relation in ("duplicate", "supersedes"):
        notes.append(f"the subject may differ ({structure.detail}), so it is not auto-resolved")
    elif structure.doubt and relation in ("duplicate", "supersedes"):
        notes.append(f"{structure.doubt}, so it is not auto-resolved")
    # A person is asked only about pairs the structure reads as one slot (may_act).
    queueable = may_act(structure)
    if not queueable and relation in ("duplicate", "supersedes", "contradicts"):
        notes.append(_why_not_queued(structure))
    rationale = verdict.rationale
    if notes:
        rationale = f"{rationale} Structure: {'; '.join(notes)}."
    return replace(
        verdict,
        relation=relation,
        rationale=rationale,
        resolvable=resolvable and verdict.resolvable,
        queueable=queueable and verdict.queueable,
    )


def _why_not_queued(structure: Structure) -> str:
    if not structure.stated:
        return "a fact sentence asks or requests rather than states, so it is not queued"
    if structure.subject != SAME:
        return "the subjects may differ, so it is not queued"
    if structure.attribute != SAME:
        return "the attributes may differ, so it is not queued"
    return "the fact sentences share under half their words, so it is not queued"


def guarded_judge(judge: Judge, pair: Pair) -> Verdict:
    """``judge``'s verdict on ``pair`` under R-H7/R-H8; the judge is not called when the
    structure settles the pair."""
    structure = analyse(pair.a, pair.b, pair.kind_a, pair.kind_b)
    settled = structural_verdict(structure)
    if settled is not None:
        return settled
    return reconcile(judge.judge(pair), structure)
