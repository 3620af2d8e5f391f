"""The memory and link objects are built directly by the agent layer (memory_body, link_body),
for speed and for MCP; they must equal DRF's walk over the REST serializers' declared fields,
which is what the OpenAPI schema documents."""

from __future__ import annotations

from memories.agent.results import link_body, memory_body
from memories.api.serializers import LinkSerializer, MemorySerializer
from memories.models import Link, Memory
from memories.services import LinkSpec, memory_forget, memory_remember
from tests.factories import make_memory


def test_memory_body_equals_the_declared_serializer_in_every_state(alice, acme):
    personal = make_memory(alice.user, "Alice's bike lock code is not stored here.")
    old = make_memory(alice.user, "The standup is at 09:30.", project=acme, session="s-1", metadata={"source": "chat"})
    new = memory_remember(
        user=alice.user,
        credential=alice.credential,
        content="The standup is at 09:45.",
        kind="fact",
        project_slug="acme",
        links=[LinkSpec("supersedes", old.pk)],
    ).memory
    task = make_memory(alice.user, "Book the offsite venue.", project=acme, kind="task")
    closer = memory_remember(
        user=alice.user,
        credential=alice.credential,
        content="The offsite venue is booked.",
        kind="fact",
        project_slug="acme",
        links=[LinkSpec("supersedes", task.pk)],
    ).memory
    forgotten = make_memory(alice.user, "A note to forget.", project=acme)
    memory_forget(user=alice.user, credential=alice.credential, memory_id=forgotten.pk)

    rows = Memory.objects.select_related("owner", "project").order_by("created_at")
    assert {row.state for row in rows} == {"live", "superseded", "forgotten"}
    assert any(row.closed_by_id == closer.pk for row in rows)
    for row in rows:
        assert memory_body(row) == MemorySerializer().generic_representation(row)
        assert list(memory_body(row)) == list(MemorySerializer().generic_representation(row))
    assert MemorySerializer(rows, many=True).data == [memory_body(row) for row in rows]
    assert {personal.pk, new.pk} <= {row.pk for row in rows}


def test_link_body_equals_the_declared_serializer(alice, acme):
    old = make_memory(alice.user, "The standup is at 09:30.", project=acme)
    memory_remember(
        user=alice.user,
        credential=alice.credential,
        content="The standup is at 09:45.",
        kind="fact",
        project_slug="acme",
        links=[LinkSpec("supersedes", old.pk), LinkSpec("relates_to", old.pk)],
    )

    links = list(Link.objects.order_by("created_at"))
    assert len(links) == 2
    for link in links:
        assert link_body(link) == LinkSerializer().generic_representation(link)
        assert list(link_body(link)) == list(LinkSerializer().generic_representation(link))
