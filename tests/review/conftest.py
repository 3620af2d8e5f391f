from __future__ import annotations

import pytest

from review import judges
from review.judges import JudgeError, Pair, Verdict


class ScriptedJudge:
    """A judge whose verdicts the test decides (the pipeline is what is under test)."""

    name = "scripted"

    def __init__(self) -> None:
        self.verdict = Verdict("unrelated", 0.5, "scripted")
        self.failures_left = 0
        self.calls: list[Pair] = []

    def judge(self, pair: Pair) -> Verdict:
        self.calls.append(pair)
        if self.failures_left:
            self.failures_left -= 1
            raise JudgeError("scripted failure")
        return self.verdict


@pytest.fixture
def scripted_judge(monkeypatch) -> ScriptedJudge:
    judge = ScriptedJudge()
    monkeypatch.setattr(judges, "_judge", judge)
    monkeypatch.setattr("review.pipeline.time.sleep", lambda seconds: None)
    return judge
