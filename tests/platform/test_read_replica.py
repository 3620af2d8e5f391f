"""DATABASE_REPLICA_URLS: recall and the feed read from a replica; writes and id lookups do not.

The "replica" here is a second connection alias to the same test database (what a streaming
replica looks like to the app): the check is which connection each operation's queries ran on.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.db import connection

from memories.models import Project
from tests.conftest import Persona
from tests.factories import make_memory
from tests.platform.helpers import child_env, manage
from zeromemory.embedded_db import EmbeddedServer

pytestmark = pytest.mark.django_db(transaction=True)

SCRIPT = """
import json
from django.contrib.auth.models import User
from django.db import connections
from django.test.utils import CaptureQueriesContext
from memories.agent import verbs

alice = User.objects.get(username="alice")
runs = {}
for name, run in {
    "recall": lambda: verbs.recall(user=alice, arguments={"query": "deploy window", "project": "acme"}),
    "feed": lambda: list(verbs.feed_rows(user=alice, arguments={})),
    "detail": lambda: verbs.detail(user=alice, memory_id=MEMORY_ID),
}.items():
    primary, replica = CaptureQueriesContext(connections["default"]), CaptureQueriesContext(connections["replica1"])
    with primary, replica:
        answer = run()
    runs[name] = {"primary": len(primary.captured_queries), "replica": len(replica.captured_queries)}
    if name == "recall":
        runs[name]["found"] = [hit["memory"]["id"] for hit in answer["results"]]
print("RESULT " + json.dumps(runs))
"""


def test_recall_and_the_feed_read_from_the_replica_and_lookups_from_the_primary(alice: Persona, acme: Project) -> None:
    memory = make_memory(alice.user, "The deploy window is Monday 10:00 UTC.", project=acme)
    url = EmbeddedServer(settings.DATA_DIR).url(connection.settings_dict["NAME"])
    env = child_env(DATABASE_URL=url, DATABASE_REPLICA_URLS=url, ZEROMEMORY_DB_POOL="false")

    result = manage("shell", "-c", SCRIPT.replace("MEMORY_ID", repr(memory.pk)), env=env, timeout=300)

    assert result.returncode == 0, result.stderr
    runs = json.loads(result.stdout.split("RESULT ", 1)[1])
    assert runs["recall"]["found"] == [memory.pk]
    assert runs["recall"]["primary"] == 0
    assert runs["recall"]["replica"] > 0
    assert runs["feed"]["primary"] == 0
    assert runs["feed"]["replica"] == 1
    assert runs["detail"]["replica"] == 0
    assert runs["detail"]["primary"] > 0


def test_without_replicas_every_read_uses_the_primary(alice: Persona) -> None:
    from memories.platform.replicas import ReplicaRouter, replica_reads

    with replica_reads():
        assert ReplicaRouter().db_for_read(None) == "default"
