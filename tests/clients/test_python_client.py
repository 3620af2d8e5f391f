"""clients/python (zeromemory_client) against the production server, as an agent uses it."""

from __future__ import annotations

import asyncio
import inspect
from datetime import datetime

import pytest
from zeromemory_client import (
    AsyncClient,
    Client,
    Hit,
    InvalidRequest,
    Memory,
    NotFound,
    RetryPolicy,
    StaleTarget,
    TransportError,
    Unauthorized,
)

from memories.models import Memory as MemoryRow
from review.models import Conflict as ConflictRow
from tests.clients.proxy import Proxy
from tests.conftest import Persona

pytestmark = pytest.mark.django_db(transaction=True)

QUICK = RetryPolicy(backoff=0.01)  # the retries' waits, short: the behaviour under test is which calls retry


def client_for(server: str, persona: Persona, **options: object) -> Client:
    return Client(server, persona.token, **options)  # type: ignore[arg-type]


def test_a_declared_supersede_keeps_the_version_chain(server, alice):
    with client_for(server, alice) as zm:
        old = zm.remember("The deploy window is Monday 10:00 UTC.", project="acme", kind="fact")
        new = zm.remember("The deploy window is Friday 14:00 UTC.", project="acme", supersedes=[old.memory.id])
        history = zm.history(new.memory.id)
        retired = zm.get(old.memory.id)
        hits = zm.recall("When is the deploy window?", project="acme", limit=5)

    assert (old.status, old.absorbed, old.superseded) == (201, False, [])
    assert old.similar_existing == []  # nothing was declared, so the answer carries the list
    assert (new.status, new.superseded, new.skipped, new.similar_existing) == (201, [old.memory.id], [], None)
    assert isinstance(new.memory, Memory)
    assert isinstance(new.memory.created_at, datetime)
    assert (new.memory.owner, new.memory.project, new.memory.state) == ("alice", "acme", "live")
    assert history.head == new.memory.id
    assert [version.id for version in history.versions] == [old.memory.id, new.memory.id]
    assert [(edge.src, edge.dst, edge.type, edge.origin) for edge in history.edges] == [
        (new.memory.id, old.memory.id, "supersedes", "declared")
    ]
    assert (retired.state, retired.superseded_by) == ("superseded", new.memory.id)
    assert all(isinstance(hit, Hit) for hit in hits)
    assert [hit.memory.id for hit in hits] == [new.memory.id]  # live versions only


def test_on_stale_reject_raises_stale_target_naming_the_current_version_and_stores_nothing(server, alice, bob):
    with client_for(server, alice) as zm:
        first = zm.remember("The on-call phone is with Ana.", project="acme")
        second = zm.remember("The on-call phone is with Ben.", project="acme", supersedes=[first.memory.id])
    before = MemoryRow.objects.count()

    with client_for(server, bob) as zm, pytest.raises(StaleTarget) as raised:
        zm.remember("The on-call phone is with Cy.", project="acme", supersedes=[first.memory.id], on_stale="reject")

    assert (raised.value.status, raised.value.code) == (409, "stale_target")
    assert raised.value.current == [{"dst": first.memory.id, "current": second.memory.id}]
    assert MemoryRow.objects.count() == before


def test_errors_carry_status_code_and_fields(server, alice, carol):
    with client_for(server, alice) as zm:
        private = zm.remember("alice's own note", visibility="private")
        with pytest.raises(InvalidRequest) as invalid:
            zm.remember("   ")
        with pytest.raises(TypeError):
            zm.remember("x", supersedes="mem_01J00000000000000000000000")  # a lone id, not a list
    with client_for(server, carol) as zm, pytest.raises(NotFound) as hidden:
        zm.get(private.memory.id)
    with Client(server, "zm_not-a-token") as zm, pytest.raises(Unauthorized) as unknown:
        zm.whoami()

    assert (invalid.value.status, invalid.value.code) == (400, "invalid")
    assert set(invalid.value.fields or {}) == {"content"}
    assert (hidden.value.status, hidden.value.code) == (404, "not_found")
    assert unknown.value.status == 401
    assert MemoryRow.objects.filter(owner=alice.user).count() == 1


def test_feed_and_events_follow_their_cursors_and_a_poller_resumes(server, alice):
    with client_for(server, alice) as zm:
        written = [zm.remember(f"Service {n} runs on port {8000 + n}.", project="acme").memory.id for n in range(5)]
        feed = [memory.id for memory in zm.feed(project="acme", page_size=2)]
        stream = zm.events(project="acme", type="memory.created", page_size=2)
        seen = [event.memory for event in stream]
        later = zm.remember("Service 9 runs on port 8009.", project="acme").memory.id
        resumed = [event.memory for event in zm.events(project="acme", cursor=stream.cursor)]

    assert feed == written[::-1]
    assert seen == written
    assert resumed == [later]


def test_forget_restore_link_whoami_context_and_a_batch(server, alice):
    with client_for(server, alice) as zm:
        note = zm.remember("The staging database is db-2.", project="acme").memory
        other = zm.remember("db-2 runs PostgreSQL 17.", project="acme").memory
        forgotten = zm.forget(note.id, reason="moved")
        restored = zm.restore(note.id)
        link = zm.link(other.id, note.id, "relates_to")
        again = zm.link(other.id, note.id, "relates_to")
        me = zm.whoami()
        pack = zm.context("Which database does staging use?", max_tokens=200, project="acme")
        items = [{"content": "Backups run at 02:00."}, {"content": ""}, {"content": "Logs go to Loki."}]
        batch = zm.remember_batch(items)

    assert (forgotten.state, restored.state) == ("forgotten", "live")
    assert (link.src, link.dst, link.type, link.origin) == (other.id, note.id, "relates_to", "link")
    assert again.id == link.id
    assert me.user == "alice"
    assert [project["slug"] for project in me.projects] == ["acme"]
    assert "The staging database is db-2." in pack.text
    assert pack.tokens <= 200
    assert note.id in [item.id for item in pack.items]
    assert [item.status for item in batch] == [201, 400, 201]
    assert batch[1].error is not None
    assert batch[1].error["code"] == "invalid"
    stored = [item.result.memory.content for item in batch if item.result]
    assert stored == ["Backups run at 02:00.", "Logs go to Loki."]


def test_a_fork_is_listed_as_a_conflict_and_resolved(server, alice):
    with client_for(server, alice) as zm:
        base = zm.remember("The release train leaves on Tuesdays.", project="acme").memory
        one = zm.remember("The release train leaves on Wednesdays.", project="acme", supersedes=[base.id])
        two = zm.remember("The release train leaves on Thursdays.", project="acme", supersedes=[base.id])
        pending = list(zm.conflicts())
        resolved = zm.resolve_conflict(pending[0].id, "newer_supersedes")
        left = list(zm.conflicts())

    assert two.skipped == [{"dst": base.id, "reason": "dead", "current": one.memory.id}]
    assert [(c.older.id, c.newer.id, c.relation, c.stale_version) for c in pending] == [
        (one.memory.id, two.memory.id, "contradicts", base.id)
    ]
    assert pending[0].group is not None
    assert pending[0].group.conflicts == [pending[0].id]
    assert (resolved.status, resolved.resolution) == ("resolved", "newer_supersedes")
    assert left == []
    assert MemoryRow.objects.get(pk=one.memory.id).state == "superseded"


def test_a_write_whose_answer_was_lost_is_retried_with_its_key_and_stored_once(server, alice):
    port = int(server.rsplit(":", 1)[1])
    proxy = Proxy(port, drop_answers=1)
    try:
        with Client(proxy.url, alice.token, retry=QUICK) as zm:
            answer = zm.remember("The VPN gateway is vpn-3.", project="acme")
    finally:
        proxy.close()

    assert proxy.connections == 2  # the lost answer, then the retry
    assert MemoryRow.objects.filter(content="The VPN gateway is vpn-3.").count() == 1
    assert answer.memory.id == MemoryRow.objects.get(content="The VPN gateway is vpn-3.").pk


def test_a_lost_answer_to_a_conflict_decision_is_not_resent(server, alice):
    with client_for(server, alice) as zm:
        base = zm.remember("Standup is at 9:30.", project="acme").memory
        zm.remember("Standup is at 9:45.", project="acme", supersedes=[base.id])
        zm.remember("Standup is at 10:00.", project="acme", supersedes=[base.id])
        conflict = next(iter(zm.conflicts()))
    port = int(server.rsplit(":", 1)[1])
    proxy = Proxy(port, drop_answers=1)
    try:
        with Client(proxy.url, alice.token, retry=QUICK) as zm, pytest.raises(TransportError) as lost:
            zm.resolve_conflict(conflict.id, "keep_both")
    finally:
        proxy.close()

    assert lost.value.status == 0
    assert proxy.connections == 1  # one decision, sent once; its outcome is the caller's to read
    assert ConflictRow.objects.get(pk=conflict.id).status == "resolved"


def test_a_gateways_503_is_retried(server, alice):
    port = int(server.rsplit(":", 1)[1])
    proxy = Proxy(port, refuse_first=2)
    try:
        with Client(proxy.url, alice.token, retry=QUICK) as zm:
            me = zm.whoami()
    finally:
        proxy.close()

    assert (me.user, proxy.connections) == ("alice", 3)


def test_the_async_client_does_what_the_sync_one_does(server, alice):
    async def story() -> tuple[list[str], list[str], list[str], list[str]]:
        async with AsyncClient(server, alice.token) as zm:
            old = await zm.remember("The wiki lives at wiki.acme.test.", project="acme")
            new = await zm.remember("The wiki lives at docs.acme.test.", project="acme", supersedes=[old.memory.id])
            history = await zm.history(new.memory.id)
            events = [event.type async for event in zm.events(project="acme", page_size=1)]
            feed = [memory.id async for memory in zm.feed(project="acme", state="all")]
            return [version.id for version in history.versions], events, feed, [old.memory.id, new.memory.id]

    versions, events, feed, ids = asyncio.run(story())

    assert versions == ids
    assert events == ["memory.created", "memory.created", "memory.superseded"]
    assert feed == ids[::-1]


def test_both_clients_offer_the_same_methods_with_the_same_signatures():
    def public(cls: type) -> dict[str, inspect.Signature]:
        return {
            name: inspect.signature(member)
            for name, member in vars(cls).items()
            if callable(member) and not name.startswith("_") and name not in ("close", "aclose")
        }

    sync, asynchronous = public(Client), public(AsyncClient)

    assert sorted(sync) == sorted(asynchronous)
    for name, signature in sync.items():
        assert list(signature.parameters.values()) == list(asynchronous[name].parameters.values()), name
