"""A memory's page in the admin (SPEC R-A2), reached the way a person reaches it.

Django's admin writes a primary key into its URLs quoted (``_`` becomes ``_5F``), so the feed
links ``mem_01…`` as ``mem_5F01…``. Every page, action and grant must answer the same whether
its URL came from one of the admin's own links or was typed with the raw id.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from django.test import Client

from memories.models import Memory
from tests.factories import make_memory
from tests.helpers import remember, store_snapshot, supersedes

MEMORIES = "/admin/memories/memory/"


def page_url(memory_id: str) -> str:
    return f"{MEMORIES}{quote(memory_id)}/change/"


def hrefs(response) -> list[str]:
    return re.findall(r'href="([^"]+)"', response.content.decode())


@pytest.fixture
def root(db) -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root"))
    return client


@pytest.fixture
def chain(alice, acme) -> tuple[Memory, Memory]:
    v1 = make_memory(alice.user, "The deploy window is Monday 10:00 UTC.", project=acme)
    v2_id = remember(alice, "The deploy window is Friday 14:00 UTC.", project="acme", links=supersedes(v1.pk)).json()[
        "memory"
    ]["id"]
    return v1, Memory.objects.get(pk=v2_id)


def test_the_feed_links_each_memory_by_its_quoted_id(root, chain):
    _, v2 = chain
    feed = root.get(MEMORIES)

    assert feed.status_code == 200
    assert quote(v2.pk) != v2.pk  # the "_" of "mem_" is quoted: what the bug tripped over
    assert page_url(v2.pk) in hrefs(feed)


@pytest.mark.parametrize("quoted", [True, False], ids=["from-the-feed", "typed-by-hand"])
def test_a_memorys_page_shows_its_history_links_events_and_actions_however_reached(root, chain, quoted):
    v1, v2 = chain
    url = page_url(v2.pk) if quoted else f"{MEMORIES}{v2.pk}/change/"

    page = root.get(url)

    assert page.status_code == 200
    html = page.content.decode()
    for panel in ("zm-version-history", "zm-links", "zm-events", "zm-forget"):
        assert f'id="{panel}"' in html, panel
    # Each version, each end of the supersede edge and the forget action link by the quoted id,
    # as the admin's own links do.
    links = hrefs(page)
    assert page_url(v1.pk) in links
    assert page_url(v2.pk) in links
    assert f'action="{MEMORIES}{quote(v2.pk)}/forget/"' in html


def test_following_the_chain_from_a_memorys_page_opens_its_predecessors_page(root, chain):
    v1, v2 = chain
    page = root.get(page_url(v2.pk))

    predecessor = root.get(next(link for link in hrefs(page) if link == page_url(v1.pk)))

    html = predecessor.content.decode()
    assert 'id="zm-version-history"' in html
    assert 'id="zm-restore"' in html  # v1 is superseded: the page offers to restore it
    assert f'action="{MEMORIES}{quote(v1.pk)}/restore/"' in html


def test_forget_and_restore_work_from_the_quoted_urls_the_page_posts_to(root, chain):
    _, v2 = chain

    forgotten = root.post(f"{MEMORIES}{quote(v2.pk)}/forget/", {"reason": "wrong"})

    assert forgotten.status_code == 302
    assert forgotten["Location"] == page_url(v2.pk)
    assert Memory.objects.get(pk=v2.pk).state == "forgotten"

    restored = root.post(f"{MEMORIES}{quote(v2.pk)}/restore/")

    assert restored.status_code == 302
    assert Memory.objects.get(pk=v2.pk).state == "live"


def test_a_missing_invisible_or_malformed_id_answers_404_everywhere_and_changes_nothing(root, chain, carol):
    _, v2 = chain
    outsider = Client()
    outsider.force_login(User.objects.create_user("outsider", is_staff=True))
    before = store_snapshot()

    for client, memory_id in [
        (root, quote("mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T")),  # well-formed, missing
        (root, "mem_5F"),
        (root, "nonsense"),
        (root, "mem%00"),  # a NUL byte PostgreSQL would refuse to compare
        (outsider, quote(v2.pk)),  # exists, invisible to a staff user outside acme
    ]:
        for suffix in ("change/", "forget/", "restore/", "permissions/"):
            url = f"{MEMORIES}{memory_id}/{suffix}"
            response = client.post(url) if suffix in {"forget/", "restore/"} else client.get(url)
            assert response.status_code == 404, (memory_id, suffix, response.status_code)

    assert store_snapshot() == before


def test_per_object_grants_are_managed_from_the_pages_own_links(root, chain, carol):
    from memories.visibility import visible_memories

    _, v2 = chain
    page = root.get(page_url(v2.pk))
    grants_url = next(link for link in hrefs(page) if link.endswith("/permissions/"))
    assert grants_url == f"{MEMORIES}{quote(v2.pk)}/permissions/"
    assert root.get(grants_url).status_code == 200

    chosen = root.post(grants_url, {"user": "carol", "submit_manage_user": "submit"})
    granted = root.post(chosen["Location"], {"permissions": ["view_memory"]})

    assert granted.status_code == 302
    assert visible_memories(carol.user).filter(pk=v2.pk).exists()
    # The grants page lists carol with an "Edit" link relative to its own (quoted) URL.
    listing = root.get(grants_url)
    edit = f"{grants_url}user-manage/{carol.user.pk}/"
    assert f'href="user-manage/{carol.user.pk}/"' in listing.content.decode()
    assert root.get(edit).status_code == 200
    # Nothing chosen: a browser still posts the CSRF token, so the form is bound and saves.
    revoked = root.post(edit, {"permissions": [], "csrfmiddlewaretoken": "unchecked-in-tests"})
    assert revoked.status_code == 302
    assert not visible_memories(carol.user).filter(pk=v2.pk).exists()


def events_on(page) -> list[str]:
    panel = page.content.decode().split('id="zm-events"', 1)[1].split("</fieldset>", 1)[0]
    return re.findall(r"<strong>([a-z_]+)</strong>", panel)


@pytest.fixture
def crossroads(alice, dave, acme):
    """M, an acme memory dave (a staff maintainer of acme, no superuser) may see, joined to
    memories he may not: alice's private ones in acme and one in globex, a project he is not in."""
    from memories.services import link_create
    from tests.factories import ProjectFactory

    globex = ProjectFactory.create(slug="globex")
    from memories import services

    services.membership_set(actor=None, via="tests", project=globex, user=alice.user, role="member")
    dave.user.is_staff = True
    dave.user.save()
    shown = {
        "older": make_memory(alice.user, "Acme's CI runs on Jenkins.", project=acme),
        "related": make_memory(alice.user, "Acme's CI agents run in eu-west-1.", project=acme),
    }
    hidden = {
        "private_older": make_memory(alice.user, "My note: CI is Jenkins.", project=acme, visibility="private"),
        "private": make_memory(alice.user, "My note: ask Sam about CI costs.", project=acme, visibility="private"),
        "globex": make_memory(alice.user, "Globex copies Acme's CI set-up.", project=globex),
    }
    written = remember(
        alice,
        "Acme's CI runs on GitHub Actions now.",
        project="acme",
        links=supersedes(shown["older"].pk, hidden["private_older"].pk),
    ).json()
    memory = Memory.objects.get(pk=written["memory"]["id"])
    assert sorted(written["superseded"]) == sorted([shown["older"].pk, hidden["private_older"].pk])
    link_create(user=alice.user, src_id=memory.pk, dst_id=hidden["private"].pk, type="relates_to")
    link_create(user=alice.user, src_id=memory.pk, dst_id=shown["related"].pk, type="derived_from")
    link_create(user=alice.user, src_id=hidden["globex"].pk, dst_id=memory.pk, type="depends_on")
    return memory, shown, hidden


def test_a_staff_maintainer_sees_no_trace_of_memories_hidden_from_him(crossroads, dave):
    memory, shown, hidden = crossroads
    client = Client()
    client.force_login(dave.user)

    page = client.get(page_url(memory.pk))

    html = page.content.decode()
    assert page.status_code == 200
    for visible in (memory, *shown.values()):
        assert visible.pk in html
    for invisible in hidden.values():
        assert invisible.pk not in html
        assert quote(invisible.pk) not in html
    # Nor the types of the links that lead to them: only the visible derived_from remains.
    links = html.split('id="zm-links"', 1)[1].split("</fieldset>", 1)[0]
    assert re.findall(r"[→←] ([a-z_]+)", links) == ["supersedes", "derived_from"]
    # The "linked" event naming alice's private memory is left out, the one naming a visible one kept.
    assert events_on(page) == ["created", "linked"]
    # The API's history agrees with the page's chain.
    history = dave.client.get(f"/api/v1/memories/{memory.pk}/history/").json()
    assert [v["id"] for v in history["versions"]] == [shown["older"].pk, memory.pk]


def test_a_superuser_sees_every_link_and_event_of_the_same_memory(crossroads):
    memory, shown, hidden = crossroads
    client = Client()
    client.force_login(User.objects.create_superuser("root"))

    page = client.get(page_url(memory.pk))

    html = page.content.decode()
    for any_memory in (*shown.values(), *hidden.values()):
        assert any_memory.pk in html
    links = html.split('id="zm-links"', 1)[1].split("</fieldset>", 1)[0]
    assert sorted(re.findall(r"[→←] ([a-z_]+)", links)) == sorted(
        ["supersedes", "supersedes", "relates_to", "derived_from", "depends_on"]
    )
    assert events_on(page) == ["created", "linked", "linked"]


def test_a_memory_superseded_by_a_hidden_one_shows_no_trace_of_it_but_its_id(crossroads, alice, dave):
    memory, _, _ = crossroads
    successor = remember(
        alice, "My note: CI moves to Buildkite.", project="acme", visibility="private", links=supersedes(memory.pk)
    ).json()["memory"]["id"]
    client = Client()
    client.force_login(dave.user)

    page = client.get(page_url(memory.pk))

    html = page.content.decode()
    # The memory object names its successor, as the API's does (GET /memories/{id}/ answers
    # "superseded_by" to anyone who sees the memory); nothing else does, and nothing links to it.
    assert dave.client.get(f"/api/v1/memories/{memory.pk}/").json()["superseded_by"] == successor
    assert html.count(successor) == 1
    assert quote(successor) not in html
    assert events_on(page) == ["created", "linked"]  # not the "superseded" event naming it


def test_only_who_may_retire_a_memory_may_grant_it_to_others(chain, bob, carol):
    from memories.visibility import visible_memories

    _, v2 = chain  # alice's project memory: bob, a member of acme, sees it but may not retire it
    bob.user.is_staff = True
    bob.user.save()
    client = Client()
    client.force_login(bob.user)
    grants = f"{MEMORIES}{quote(v2.pk)}/permissions/"

    page = client.get(page_url(v2.pk))

    assert page.status_code == 200
    assert grants not in hrefs(page)
    assert 'id="zm-forget"' not in page.content.decode()
    assert client.get(grants).status_code == 403
    assert client.post(grants, {"user": "carol", "submit_manage_user": "submit"}).status_code == 403
    manage = f"{grants}user-manage/{carol.user.pk}/"
    assert client.post(manage, {"permissions": ["view_memory"]}).status_code == 403
    assert client.post(f"{grants}group-manage/1/", {"permissions": ["view_memory"]}).status_code == 403
    assert not visible_memories(carol.user).filter(pk=v2.pk).exists()


def test_the_feeds_filters_name_only_projects_and_owners_the_viewer_may_see(alice, dave, carol):
    # carol's project (globex) and carol herself share nothing with dave: no filter may list them
    # (SPEC §2: non-members see nothing of a project, including whether it exists).
    make_memory(carol.user, "Globex pays invoices within 45 days.", project=carol.user.projects.get())
    make_memory(alice.user, "Acme's staging database is db-2.", project=alice.user.projects.get())
    make_memory(dave.user, "Acme's on-call rotates on Mondays.", project=alice.user.projects.get())
    dave.user.is_staff = True
    dave.user.save()
    client = Client()
    client.force_login(dave.user)

    for page in (MEMORIES, f"{MEMORIES}?lifecycle=all", "/admin/review/conflict/?status=all"):
        html = client.get(page).content.decode()
        assert "globex" not in html.lower(), page
        assert "carol" not in html, page
    feed = client.get(MEMORIES).content.decode()
    # The filters are there, listing acme, alice and dave only.
    assert re.findall(r'href="\?project__id__exact=\d+">([^<]+)<', feed) == ["acme"]
    assert re.findall(r'href="\?owner__id__exact=\d+">([^<]+)<', feed) == ["alice", "dave"]


def test_the_feed_makes_a_fixed_number_of_queries_however_many_rows(root, alice, django_assert_max_num_queries):
    for n in range(30):
        make_memory(alice.user, f"Extra fact number {n} about the billing system")

    with django_assert_max_num_queries(12):
        response = root.get(MEMORIES)

    assert response.status_code == 200
    assert response.content.count(b"Extra fact number") == 30
