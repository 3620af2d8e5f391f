"""The OpenAI-compatible judge against a small local server that speaks the protocol."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from review.judges import JudgeError, Pair
from review.judges.openai_compatible import OpenAICompatibleJudge, parse_verdict


class FakeChatServer:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.answer = "The time moved.\n" + json.dumps(
            {"relation": "supersedes", "confidence": 0.82, "rationale": "Same meeting, new time."}
        )
        self.status = 200


@pytest.fixture
def chat_server() -> Iterator[tuple[FakeChatServer, str]]:
    state = FakeChatServer()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers["Content-Length"])
            state.requests.append(json.loads(self.rfile.read(length)))
            state.headers.append(dict(self.headers))
            body = json.dumps({"choices": [{"message": {"role": "assistant", "content": state.answer}}]}).encode()
            self.send_response(state.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


def test_the_adapter_asks_for_reasoning_then_a_json_verdict(chat_server):
    state, url = chat_server
    judge = OpenAICompatibleJudge(base_url=url, model="tiny-judge", api_key="sk-test")

    verdict = judge.judge(Pair(a="Standup at 09:30", b="Standup at 09:45", kind_a="fact", kind_b="fact"))

    assert (verdict.relation, verdict.confidence, verdict.rationale) == ("supersedes", 0.82, "Same meeting, new time.")
    sent = state.requests[0]
    assert sent["model"] == "tiny-judge"
    assert "step by step" in sent["messages"][0]["content"]
    assert sent["messages"][1]["content"] == "OLDER (fact): Standup at 09:30\nNEWER (fact): Standup at 09:45"
    assert state.headers[0]["Authorization"] == "Bearer sk-test"
    assert judge.name == "openai:tiny-judge"


@pytest.mark.parametrize(
    "answer",
    [
        "I am not sure.",
        '{"relation": "replaces", "confidence": 0.9}',
        '{"relation": "duplicate", "confidence": 1.7}',
        '{"relation": "duplicate", "confidence": "high"}',
        '{"relation": "duplicate", "confidence": 0.9',
    ],
)
def test_a_malformed_answer_is_a_judge_error(chat_server, answer):
    state, url = chat_server
    state.answer = answer

    with pytest.raises(JudgeError):
        OpenAICompatibleJudge(base_url=url, model="m").judge(Pair(a="x", b="y"))


def test_an_http_error_or_unreachable_server_is_a_judge_error(chat_server):
    state, url = chat_server
    state.status = 500

    with pytest.raises(JudgeError):
        OpenAICompatibleJudge(base_url=url, model="m").judge(Pair(a="x", b="y"))
    with pytest.raises(JudgeError):
        OpenAICompatibleJudge(base_url="http://127.0.0.1:9", model="m", timeout=2).judge(Pair(a="x", b="y"))


def test_the_last_json_object_is_the_verdict():
    verdict = parse_verdict(
        'Maybe {"relation": "unrelated", "confidence": 0.1}\nFinal: '
        '{"relation": "complementary", "confidence": 0.75, "rationale": "two tiers"}'
    )

    assert (verdict.relation, verdict.confidence) == ("complementary", 0.75)


def test_the_structure_guard_holds_an_llm_judge_too(chat_server):
    """R-H7/R-H8 regardless of the model: the endpoint is not asked about two subjects, and its
    confident supersede of an uncued value change is queued as a contradiction."""
    from review.judges.guard import guarded_judge

    state, url = chat_server
    state.answer = json.dumps({"relation": "supersedes", "confidence": 0.99, "rationale": "New value."})
    judge = OpenAICompatibleJudge(base_url=url, model="test-model")

    other_subject = guarded_judge(
        judge, Pair(a="The billing service deploys on Fridays.", b="The search service deploys on Fridays.")
    )
    uncued = guarded_judge(judge, Pair(a="The standup is at 09:30.", b="The standup is at 09:45."))
    cued = guarded_judge(judge, Pair(a="The standup is at 09:30.", b="The standup moved to 09:45."))

    assert (other_subject.relation, other_subject.resolvable, other_subject.queueable) == (
        "complementary",
        False,
        False,
    )
    assert (uncued.relation, uncued.resolvable) == ("contradicts", False)
    assert (cued.relation, cued.confidence, cued.resolvable) == ("supersedes", 0.99, True)
    assert len(state.requests) == 2  # the endpoint was asked about the two same-subject pairs only
