"""The conflict queue's pages in the admin (SPEC R-A3), reached through the queue's own links."""

from __future__ import annotations

import re

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from django.test import Client

from memories.models import Memory
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


@pytest.fixture
def priya(alice, acme) -> dict:
    """Three values of Priya's city, two conflicts between them: one group."""
    values = [make_memory(alice.user, f"Priya lives in {city}.", project=acme) for city in ("Oslo", "Bergen", "Lisbon")]
    for older, newer in ((values[0], values[1]), (values[1], values[2])):
        apply_verdict(
            older_id=older.pk, newer_id=newer.pk, judge_name="test", verdict=Verdict("contradicts", 0.6, "two cities")
        )
    return {"values": values, "conflicts": list(Conflict.objects.order_by("pk"))}


def test_the_pending_queue_shows_a_group_as_one_row_that_opens_its_group_page(root, priya):
    first, second = priya["conflicts"]
    oslo, bergen, lisbon = priya["values"]

    queue = root.get(QUEUE)
    html = queue.content.decode()
    assert f"{QUEUE}{first.pk}/change/" in hrefs(queue)
    assert f"{QUEUE}{second.pk}/change/" not in hrefs(queue)  # one row per group: its lead's
    assert "3 values · 2 conflicts" in html
    per_conflict = hrefs(root.get(f"{QUEUE}?status=all"))  # the other statuses: one row per conflict
    assert {f"{QUEUE}{c.pk}/change/?_changelist_filters=status%3Dall" for c in (first, second)} <= set(per_conflict)

    page = root.get(next(link for link in hrefs(queue) if link == f"{QUEUE}{first.pk}/group/"))
    html = page.content.decode()
    assert page.status_code == 200
    order = [html.index(f'data-memory="{memory.pk}"') for memory in (lisbon, bergen, oslo)]
    assert order == sorted(order)  # newest first
    assert html.count("This one stands") == 3
    assert 'id="zm-keep_all"' in html
    assert 'id="zm-dismiss"' in html
    # The pair's own page says it belongs to a group, and links it.
    assert f"{QUEUE}{second.pk}/group/" in hrefs(root.get(f"{QUEUE}{second.pk}/change/"))


def test_this_one_stands_from_the_group_page_settles_the_whole_group(root, priya):
    first, second = priya["conflicts"]
    oslo, bergen, lisbon = priya["values"]
    expected = f"{first.pk},{second.pk}"

    done = root.post(
        f"{QUEUE}{first.pk}/group/resolve/",
        {"action": "stands", "memory": oslo.pk, "conflicts": expected},
        follow=True,
    )

    assert done.redirect_chain == [(QUEUE, 302)]
    assert (
        f"Group of conflict {first.pk}: {oslo.pk} stands; 2 other values superseded by it (2 conflicts settled)."
        in done.content.decode()
    )
    states = dict(Memory.objects.filter(pk__in=[m.pk for m in priya["values"]]).values_list("pk", "superseded_by"))
    assert states == {oslo.pk: None, bergen.pk: oslo.pk, lisbon.pk: oslo.pk}
    assert set(Conflict.objects.values_list("status", "resolution")) == {("resolved", "group_stands")}


def test_group_pages_refuse_what_the_viewer_may_not_moderate_and_a_stale_group_and_change_nothing(root, bob, priya):
    first = priya["conflicts"][0]
    member = Client()
    bob.user.is_staff = True
    bob.user.save()
    member.force_login(bob.user)
    before = store_snapshot()

    assert member.get(f"{QUEUE}{first.pk}/group/").status_code == 404
    assert member.post(f"{QUEUE}{first.pk}/group/resolve/", {"action": "dismiss"}).status_code == 404
    assert root.get(f"{QUEUE}999999/group/").status_code == 404
    # The page showed one conflict; the group has two now: refused, with the service's message.
    stale = root.post(
        f"{QUEUE}{first.pk}/group/resolve/", {"action": "keep_all", "conflicts": str(first.pk)}, follow=True
    )
    assert stale.redirect_chain == [(f"{QUEUE}{first.pk}/group/", 302)]
    assert f"Conflict {first.pk}&#x27;s group is not the one you decided on." in stale.content.decode()
    assert store_snapshot() == before
    assert set(Conflict.objects.values_list("status", flat=True)) == {"pending"}


def test_dismissing_a_selected_row_of_the_pending_queue_dismisses_its_whole_group(root, priya):
    first, second = priya["conflicts"]
    before = store_snapshot()

    done = root.post(QUEUE, {"action": "dismiss_selected", "_selected_action": [first.pk]}, follow=True)

    assert "Dismissed 2 conflict(s)." in done.content.decode()
    assert dict(Conflict.objects.values_list("pk", "status")) == {first.pk: "dismissed", second.pk: "dismissed"}
    assert store_snapshot() == before  # no memory changed


@pytest.mark.parametrize(
    ("relation", "sentence"),
    [
        ("duplicate", "repeats"),
        ("supersedes", "supersedes"),
        ("complementary", "adds to"),
        ("contradicts", "contradicts"),
        ("unrelated", "is unrelated to"),
    ],
)
def test_the_conflict_page_says_in_a_sentence_what_the_judge_thinks(root, conflict, relation, sentence):
    """Issue 34: the page wrote the relation's label into the sentence ("the newer memory duplicate
    the older one")."""
    Conflict.objects.filter(pk=conflict.pk).update(relation=relation)
    page = root.get(f"{QUEUE}{conflict.pk}/change/")
    verdict = re.search(r'<div class="zm-verdict" id="zm-verdict">(.*?)</div>', page.content.decode(), re.DOTALL)
    assert verdict is not None
    text = " ".join(re.sub(r"<[^>]+>", "", verdict.group(1)).split())
    assert text == f"The judge thinks the newer memory {sentence} the older one (0.70 confidence): time changed"
    assert f"<h1>Conflict {conflict.pk}</h1>" in page.content.decode()  # not "Change conflict"


def test_every_row_of_the_queue_links_its_conflict_by_its_memories_previews(root, conflict, priya):
    """The pending queue (one row per group) and the other statuses (one row per conflict) both
    link a row's previews: a lone pair's to its page, a group's to the group's page."""
    first = Conflict.objects.get(older=priya["values"][0])
    pending = root.get(QUEUE).content.decode()
    pair_page = f"{QUEUE}{conflict.pk}/change/"
    for content in (conflict.older.content, conflict.newer.content):
        assert f'<a href="{pair_page}">{content}</a>' in pending
    for memory in priya["values"]:
        assert f'<a href="{QUEUE}{first.pk}/group/">{memory.content}</a>' in pending
    everything = root.get(f"{QUEUE}?status=all").content.decode()
    link = f'<a href="{pair_page}?_changelist_filters=status%3Dall">'
    for content in (conflict.older.content, conflict.newer.content):
        assert f"{link}{content}</a>" in everything


def test_the_group_page_links_each_memory_id_it_shows(root, priya):
    first, second = priya["conflicts"]
    links = hrefs(root.get(f"{QUEUE}{first.pk}/group/"))
    for member in (first, second):
        for memory_id in (member.older_id, member.newer_id):
            assert f"/admin/memories/memory/{quote(memory_id)}/change/" in links


def test_a_forks_rationale_links_the_pairs_ids(root, alice, acme):
    """The fork's rationale names both memories by id: each is a link to its page."""
    from memories.services import LinkSpec, memory_remember

    v1 = make_memory(alice.user, "The deploy window is Monday.", project=acme)
    for content in ("The deploy window is Friday.", "The deploy window is Thursday."):
        memory_remember(
            user=alice.user,
            credential=None,
            content=content,
            kind="fact",
            project_slug="acme",
            links=[LinkSpec("supersedes", v1.pk)],
        )
    fork = Conflict.objects.get(stale_version=v1)
    page = root.get(f"{QUEUE}{fork.pk}/change/")
    rationale = re.search(r'<div class="readonly">(Both writers.*?)</div>', page.content.decode(), re.DOTALL)
    assert rationale is not None
    links = re.findall(r'<a href="([^"]+)">(mem_\w+)</a>', rationale.group(1))
    assert sorted(links) == sorted(
        (f"/admin/memories/memory/{quote(memory_id)}/change/", memory_id)
        for memory_id in (fork.older_id, fork.newer_id)
    )
