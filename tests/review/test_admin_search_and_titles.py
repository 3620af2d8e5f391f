"""Search by memory id in the feed and the conflict queue, and page titles that say what the
page is (issue 34): a pasted id (``mem_01M92Z5F8…``) found nothing, the feed was titled "Select
memory to change" and a read-only memory page "Change memory"."""

from __future__ import annotations

import re
from urllib.parse import quote_plus

from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from django.test import Client

from review.models import Conflict
from tests.factories import make_memory


def _client(username: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


def _listed(client: Client, path: str, term: str) -> str:
    page = client.get(f"{path}?q={quote_plus(term)}")
    assert page.status_code == 200
    return page.content.decode()


def test_a_memory_id_or_its_start_finds_the_memory_and_its_conflicts(alice, bob, acme):
    User.objects.create_superuser("root", password="pw")
    older = make_memory(alice.user, "The acme deploy window is Monday.", project=acme)
    newer = make_memory(bob.user, "The acme deploy window moved to Tuesday.", project=acme)
    other = make_memory(alice.user, "Acme's staging database is Postgres 16.", project=acme)
    Conflict.objects.create(older=older, newer=newer, relation="contradicts", confidence=0.6, rationale="t")
    client = _client("root")
    shared = len(older.pk)
    while other.pk.startswith(older.pk[:shared]):  # the shortest start of the id that is its own
        shared -= 1
    own_start = older.pk[: shared + 1]

    for term in (older.pk, f"  {older.pk.lower()} ", own_start):
        feed = _listed(client, "/admin/memories/memory/", term)
        assert "The acme deploy window is Monday." in feed, term
        assert "staging database" not in feed, term
        queue = _listed(client, "/admin/review/conflict/", term)
        assert "The acme deploy window is Monday." in queue, term
    # Words still search the content; a word that merely starts like an id is a word.
    assert "staging database" in _listed(client, "/admin/memories/memory/", "staging")
    assert "staging database" not in _listed(client, "/admin/memories/memory/", "mem_!")
    # An id the viewer may not see finds nothing, as any other search.
    carol_note = make_memory(User.objects.create_user("carol2"), "Carol's own private note.")
    bob.user.is_staff = True
    bob.user.save()
    assert "Carol's own private note." not in _listed(_client("bob"), "/admin/memories/memory/", carol_note.pk)


def test_page_titles_say_what_the_page_is(alice, acme):
    User.objects.create_superuser("root", password="pw")
    memory = make_memory(alice.user, "The acme deploy window is Monday.", project=acme)
    client = _client("root")

    feed = client.get("/admin/memories/memory/").content.decode()
    page = client.get(f"/admin/memories/memory/{quote(memory.pk)}/change/").content.decode()
    queue = client.get("/admin/review/conflict/").content.decode()

    assert re.search(r"<title>Memories \|", feed)
    assert "Select memory to change" not in feed
    assert f"<h1>Memory {memory.pk}</h1>" in page
    assert "Change memory" not in page
    assert re.search(r"<title>Conflict queue \|", queue)


def test_an_expired_memory_is_marked_and_filtered_and_ids_are_links(alice, acme):
    """A memory whose valid time has ended showed as plainly live; "Superseded by" was a bare id
    and "Closed by" printed None where other empty values print "-"."""
    from datetime import timedelta

    from django.utils import timezone

    from memories.models import Memory

    User.objects.create_superuser("root", password="pw")
    expired = make_memory(alice.user, "The spring promo code is SPRING24.", project=acme)
    Memory.objects.filter(pk=expired.pk).update(
        valid_from=timezone.now() - timedelta(days=30), valid_until=timezone.now() - timedelta(days=1)
    )
    current = make_memory(alice.user, "The summer promo code is SUMMER24.", project=acme)
    client = _client("root")

    everything = client.get("/admin/memories/memory/").content.decode()
    only_expired = client.get("/admin/memories/memory/?valid=expired").content.decode()
    valid_now = client.get("/admin/memories/memory/?valid=now").content.decode()

    row = re.search(r"SPRING24.*?</tr>", everything, re.S)
    assert row is not None
    assert "zm-state-expired" in row.group(0)
    assert "zm-state-expired" not in re.search(r"SUMMER24.*?</tr>", everything, re.S).group(0)  # type: ignore[union-attr]
    assert "SPRING24" in only_expired
    assert "SUMMER24" not in only_expired
    assert "SUMMER24" in valid_now
    assert "SPRING24" not in valid_now

    from memories.services import LinkSpec, memory_remember

    newer = memory_remember(
        user=alice.user,
        credential=None,
        content="The spring promo code is SPRING25.",
        kind="fact",
        project_slug="acme",
        links=[LinkSpec(type="supersedes", dst=current.pk)],
    ).memory
    page = client.get(f"/admin/memories/memory/{quote(current.pk)}/change/").content.decode()
    assert f'href="/admin/memories/memory/{quote(newer.pk)}/change/">{newer.pk}</a>' in page
    closed_by = re.search(r"closed by:?</label>\s*<div class=\"readonly\">(.*?)</div>", page, re.I | re.S)
    assert closed_by is not None
    assert closed_by.group(1).strip() == "-"
