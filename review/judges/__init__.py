"""Pluggable judges; ``get_judge()`` builds the configured one once per process."""

from __future__ import annotations

import threading

from django.conf import settings

from review.judges.base import Judge, JudgeError, Pair, Verdict

__all__ = ["Judge", "JudgeError", "Pair", "Verdict", "get_judge"]

_judge: Judge | None = None
_lock = threading.Lock()


def get_judge() -> Judge:
    global _judge  # noqa: PLW0603 - the one process-wide instance, built lazily
    if _judge is None:
        with _lock:
            if _judge is None:
                _judge = build_judge()
    return _judge


def build_judge() -> Judge:
    if settings.HYGIENE_JUDGE == "openai":
        from review.judges.openai_compatible import OpenAICompatibleJudge

        return OpenAICompatibleJudge(
            base_url=settings.HYGIENE_JUDGE_BASE_URL,
            model=settings.HYGIENE_JUDGE_MODEL,
            api_key=settings.HYGIENE_JUDGE_API_KEY,
        )
    from review.judges.local import LocalJudge

    return LocalJudge()
