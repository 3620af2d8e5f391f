"""The conflict queue's pages in the admin (SPEC R-A3), reached through the queue's own links."""

from __future__ import annotations

import re

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from django.test import Client

from review.judges import Verdict
from review.models import Conflict
from review.pipeline import apply_verdict
from tests.factories import make_memory
from tests.helpers import store_snapshot

QUEUE = "/admin/review/conflict/"


def hrefs(response) -> list[str]:
    return re.findall(r'href="([^"]+)"', response.content.decode())


@pytest.fixture
def conflict(alice, acme) -> Conflict:
    older = make_memory(alice.user, "The standup is at 09:30 in the Lisbon room.", project=acme)
    newer = make_memory(alice.user, "The standup is at 09:45 in the Lisbon room.", project=acme)
    apply_verdict(
        older_id=older.pk, newer_id=newer.pk, judge_name="test", verdict=Verdict("supersedes", 0.7, "time changed")
    )
    return Conflict.objects.get()


@pytest.fixture
def root(db) -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root"))
    return client


def test_the_queues_link_opens_the_pair_side_by_side_with_links_to_both_memories(root, conflict):
    queue = root.get(QUEUE)
    page = root.get(next(link for link in hrefs(queue) if link == f"{QUEUE}{conflict.pk}/change/"))

    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="zm-older"' in html
    assert 'id="zm-newer"' in html
    assert '<ins class="zm-diff">09:45</ins>' in html
    for memory_id in (conflict.older_id, conflict.newer_id):
        assert f"/admin/memories/memory/{quote(memory_id)}/change/" in hrefs(page)


def test_a_missing_hidden_or_malformed_conflict_answers_404_and_changes_nothing(root, conflict, bob):
    member = Client()  # bob may not retire alice's memories: the conflict is not his to see
    bob.user.is_staff = True
    bob.user.save()
    member.force_login(bob.user)
    before = store_snapshot()

    for client, conflict_id in [(root, "999999"), (root, "abc"), (root, "1%00"), (member, str(conflict.pk))]:
        assert client.get(f"{QUEUE}{conflict_id}/change/").status_code == 404, conflict_id
    assert member.post(f"{QUEUE}{conflict.pk}/resolve/", {"action": "dismiss"}).status_code == 404

    assert store_snapshot() == before
    assert Conflict.objects.get().status == "pending"


def test_an_unknown_action_posted_to_the_console_is_refused_with_the_services_message(root, conflict):
    before = store_snapshot()

    refused = root.post(f"{QUEUE}{conflict.pk}/resolve/", {"action": "delete_both"}, follow=True)

    assert refused.redirect_chain == [(f"{QUEUE}{conflict.pk}/change/", 302)]
    assert "Unknown action &#x27;delete_both&#x27;: choose newer_supersedes, older_stands, keep_both or dismiss." in (
        refused.content.decode()
    )
    assert store_snapshot() == before
    assert Conflict.objects.get().status == "pending"
