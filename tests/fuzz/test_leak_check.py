"""The fuzzer's own leak check must be able to fail, or its silence proves nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests
import schemathesis

from tests.fuzz.conftest import ALICE_MARK
from tests.fuzz.test_api_fuzz import Principal, Run, no_foreign_memories

CAROL = Principal("carol", "zm_carol", frozenset({"carol"}), (ALICE_MARK,))


def _answer(body: Any, *, sent: Any = None) -> schemathesis.Response:
    request = requests.Request(
        "POST", "http://testserver/api/v1/recall/", headers={"Authorization": "Bearer zm_carol"}, json=sent
    ).prepare()
    return schemathesis.Response(
        status_code=200,
        headers={"content-type": ["application/json"]},
        content=json.dumps(body).encode(),
        request=request,
        elapsed=0.0,
        verify=True,
    )


def _check(response: schemathesis.Response) -> None:
    run = Run(base_url="http://testserver", session=None, principals={"carol": CAROL})  # type: ignore[arg-type]
    no_foreign_memories(run)(None, response, None)  # type: ignore[arg-type]


def test_another_owners_memory_fails_the_check() -> None:
    with pytest.raises(AssertionError, match="alice's memory"):
        _check(_answer({"results": [{"memory": {"id": "mem_x", "owner": "alice", "content": "hi"}}]}))


def test_another_owners_content_fails_the_check() -> None:
    with pytest.raises(AssertionError, match="another principal's content"):
        _check(_answer({"similar_existing": [{"preview": f"The {ALICE_MARK} budget"}]}))


def test_own_memories_and_echoed_input_pass() -> None:
    _check(_answer({"results": [{"memory": {"id": "mem_x", "owner": "carol", "content": "hi"}}]}))
    _check(_answer({"error": {"fields": {"query": [ALICE_MARK]}}}, sent={"query": ALICE_MARK}))
