"""A judge backed by any OpenAI-compatible chat-completions endpoint.

The prompt asks for the reasoning first and the verdict last, as one strict JSON object;
anything else is a JudgeError (the pipeline retries, then leaves the pair for a later sweep).
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

from review.judges.base import JudgeError, Pair, Verdict

RELATIONS = ("duplicate", "supersedes", "complementary", "contradicts", "unrelated")
SYSTEM_PROMPT = """You maintain a memory store for AI agents. You compare an OLDER and a NEWER statement \
written by the same person and decide how they relate:
- duplicate: the newer says the same as the older.
- supersedes: the newer is an updated version of the same fact about the same thing (a value changed).
- complementary: related, but both stay true (different entities, tiers, environments, or added detail).
- contradicts: same thing, conflicting claims, and nothing says one replaced the other.
- unrelated: different topics.
Retiring a statement that is still true is the costly mistake: when two statements could both hold, \
answer complementary.
First think step by step in a short paragraph. Then, on the last line, answer with one JSON object and \
nothing after it: {"relation": "<one of the five>", "confidence": <0 to 1>, "rationale": "<one sentence>"}"""
_JSON_OBJECT = re.compile(r"\{[^{}]*\}", re.DOTALL)


class OpenAICompatibleJudge:
    def __init__(self, *, base_url: str, model: str, api_key: str = "", timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.timeout = timeout
        self.name = f"openai:{model}"

    def judge(self, pair: Pair) -> Verdict:
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {
                    "role": "user",
                    "content": f"OLDER ({pair.kind_a}): {pair.a}\nNEWER ({pair.kind_b}): {pair.b}",
                },
            ],
        }
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(
            f"{self.base_url}/chat/completions", data=json.dumps(body).encode(), headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = json.loads(response.read())
        except (urllib.error.URLError, TimeoutError, OSError, ValueError) as exc:
            raise JudgeError(f"judge endpoint failed: {exc}") from exc
        try:
            content = payload["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise JudgeError("judge endpoint answered without a message") from exc
        return parse_verdict(content)


def parse_verdict(content: str) -> Verdict:
    """The last JSON object of the answer, checked field by field."""
    candidates = _JSON_OBJECT.findall(content or "")
    if not candidates:
        raise JudgeError("the judge's answer holds no JSON verdict")
    try:
        verdict: dict[str, Any] = json.loads(candidates[-1])
    except ValueError as exc:
        raise JudgeError("the judge's verdict is not valid JSON") from exc
    relation = verdict.get("relation")
    confidence = verdict.get("confidence")
    if relation not in RELATIONS:
        raise JudgeError(f"unknown relation {relation!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 <= confidence <= 1:
        raise JudgeError(f"confidence must be a number in [0, 1], not {confidence!r}")
    return Verdict(relation=relation, confidence=float(confidence), rationale=str(verdict.get("rationale", "")))
