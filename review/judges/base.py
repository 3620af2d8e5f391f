"""The judge interface: given an older and a newer statement, what is their relation?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Pair:
    a: str  # the older statement
    b: str  # the newer statement
    kind_a: str = "fact"
    kind_b: str = "fact"
    # Embeddings when the caller has them (the pipeline does); judges may compute their own.
    embedding_a: list[float] | None = None
    embedding_b: list[float] | None = None


@dataclass(frozen=True)
class Verdict:
    relation: str
    confidence: float
    rationale: str
    # False when the structure of the pair forbids an automatic retirement whatever the
    # confidence (review.judges.guard): a doubtful subject, or a supersede with no evidence.
    resolvable: bool = True
    # False when the structure is too unsure that the two share a slot to bother a person with
    # the pair (SPEC R-H7, R-H9): it is recorded, and nothing else happens.
    queueable: bool = True
    # The local judge's cross-checked reading of a reworded pair: its model and the structure
    # agree that it is one slot updated (review.judges.local). The guard lets only such a
    # verdict settle a pair whose slot the structure finds plausible rather than plain.
    checked: bool = False


class JudgeError(RuntimeError):
    """The judge could not give a verdict (network, malformed answer); safe to retry."""


class Judge(Protocol):
    name: str

    def judge(self, pair: Pair) -> Verdict: ...
