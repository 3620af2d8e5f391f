"""The admin console in a real headless Chromium (Debian's chromium + chromedriver), walked as a
person walks it.

Each SPEC §7 task starts at /admin/ and goes on by clicking links and buttons only: the only
addresses typed are the login page's and /admin/'s. Ids then reach every page in the form the
admin itself writes them into its links (quoted, ``mem_5F01…``), which is how people meet them,
and what a test that builds URLs from primary keys never exercised. The same walk is taken by a
superuser and by a team admin (staff, maintainer of one project, no superuser), who must see
nothing of another project nor any id of a memory hidden from him, on any page along the way.

``ZEROMEMORY_SCREENSHOTS=1`` writes the README's screenshots (docs/screenshots/) from these walks.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from memories.choices import Role
from memories.models import Link, Memory, WebhookEndpoint
from memories.services import (
    credential_issue,
    membership_set,
    memory_remember,
    project_set_policy,
)
from memories.visibility import visible_memories
from review.judges import Verdict
from review.models import Conflict
from review.pipeline import apply_verdict
from tests.browser.console import PASSWORD, Story, Walk, page_fits, sized, write_a_fork
from tests.factories import make_memory

pytestmark = pytest.mark.django_db(transaction=True)


def memory_id_on_page(walk: Walk) -> str:
    """The id of the memory whose page is open, read off the page (the change form's id field)."""
    return walk.browser.find_element(By.CSS_SELECTOR, ".field-id .readonly").text


def version_state(walk: Walk, memory_id: str) -> str:
    """The state the version history shows for ``memory_id``."""
    row = walk.browser.find_element(
        By.XPATH, f"//fieldset[@id='zm-version-history']//table[1]//tr[td/a[normalize-space()='{memory_id}']]"
    )
    return row.find_element(By.CSS_SELECTOR, ".zm-state").text.lower()


def through_the_feed_to_a_predecessor_and_restore_it(
    walk: Walk, story: Story, *, sees_everything: bool, screenshots: bool
) -> None:
    """Feed (R-A1) → a memory (R-A2) → its chain → the predecessor → restore."""
    walk.open_model("memory")
    feed = walk.text("result_list")
    assert "Friday 14:00" in feed
    assert "Monday 10:00 UTC." not in feed  # superseded versions hidden by default
    if screenshots:
        walk.shot("dashboard-feed")
    filters = walk.text("changelist-filter")
    for title in ("By lifecycle", "By kind", "By project", "By provenance", "By owner"):
        assert title in filters
    walk.filter("lifecycle", "Superseded")
    assert "Monday 10:00 UTC." in walk.text("result_list")
    walk.filter("lifecycle", "Live")
    walk.filter("kind", "Procedure")
    rows = walk.browser.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
    assert [row.text.split(" Procedure ")[0] for row in rows] == ["Acme's on-call rotation changes on Mondays."]
    walk.filter("kind", "All")
    walk.search("staging")
    rows = walk.browser.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
    assert [row.text.split(" Fact ")[0] for row in rows] == ["Acme's staging database is db-2."]
    walk.follow("Memories", ".breadcrumbs")  # the app's page, then the list again, unsearched
    walk.open_model("memory")

    walk.follow("Friday 14:00", "#result_list", partial=True)
    # The feed links each memory by its quoted id; the page it opens has everything (R-A2).
    assert f"/{quote(story.v2.pk)}/change/" in walk.browser.current_url
    assert memory_id_on_page(walk) == story.v2.pk
    history = walk.text("zm-version-history")
    assert story.v1.pk in history
    assert story.v2.pk in history
    assert "declared" in history.lower()  # the origin badge (upper-cased by the style sheet)
    assert "created" in walk.text("zm-events")
    assert walk.browser.find_element(By.ID, "zm-forget")
    # alice linked v2 to her private note and to it from globex: only who may see those says so.
    links = walk.text("zm-links")
    assert ("relates_to" in links, "depends_on" in links) == (sees_everything, sees_everything)
    assert (story.hidden["note"].pk in links) == sees_everything
    if screenshots:
        walk.shot("memory-version-history")

    walk.follow(story.v1.pk, "#zm-version-history table")  # the chain: the predecessor's page
    assert memory_id_on_page(walk) == story.v1.pk
    assert version_state(walk, story.v1.pk) == "superseded"
    walk.click(walk.browser.find_element(By.ID, "zm-restore"), confirm=True)

    assert walk.message() == f"Memory {story.v1.pk} restored."
    assert walk.browser.find_element(By.ID, "zm-forget")  # live again: forget is what it offers now
    assert version_state(walk, story.v1.pk) == "live"
    assert "declared · reverted" in walk.text("zm-version-history").lower()
    assert "restored" in walk.text("zm-events")
    restored = Memory.objects.get(pk=story.v1.pk)
    assert (restored.state, restored.superseded_by_id, restored.invalidated_at) == ("live", None, None)
    assert Link.objects.get(src=story.v2, dst=story.v1, type="supersedes").reverted
    assert Memory.objects.get(pk=story.v2.pk).state == "live"


def through_the_queue_to_a_pair_and_settle_it(
    walk: Walk, story: Story, action: str, *, moderator: str, screenshots: bool
) -> None:
    """Conflict queue (R-A3) → a pair side by side → an action, and its result."""
    walk.home()
    walk.open_model("conflict")
    queue = walk.text("result_list")
    assert "standup" in queue
    walk.follow(str(story.acme_conflict.pk), "#result_list")
    assert "09:30" in walk.text("zm-older")
    assert walk.browser.find_element(By.CSS_SELECTOR, "#zm-older del.zm-diff").text == "09:30"
    assert walk.browser.find_element(By.CSS_SELECTOR, "#zm-newer ins.zm-diff").text == "09:45"
    assert "supersedes" in walk.text("zm-verdict")
    assert "0.72" in walk.text("zm-verdict")
    if screenshots:
        walk.shot("conflict-side-by-side")

    walk.click(walk.browser.find_element(By.ID, f"zm-{action}"))

    assert f"Conflict {story.acme_conflict.pk}: {action.replace('_', ' ')}." in walk.message()
    assert "standup" not in walk.text("changelist")  # settled: out of the pending queue
    conflict = Conflict.objects.get(pk=story.acme_conflict.pk)
    assert (conflict.status, conflict.resolution, str(conflict.resolved_by)) == ("resolved", action, moderator)
    walk.filter("status", "Resolved")
    walk.follow(str(story.acme_conflict.pk), "#result_list")
    assert "zm-newer_supersedes" not in walk.browser.page_source  # no actions on a settled pair
    if action == "newer_supersedes":
        walk.follow(story.older.pk, "#zm-older")
        assert "moderator" in walk.text("zm-version-history").lower()
        assert Memory.objects.get(pk=story.older.pk).superseded_by_id == story.newer.pk
    else:  # older_stands: the newer memory is retired
        walk.follow(story.newer.pk, "#zm-newer")
        assert walk.browser.find_element(By.ID, "zm-restore")
        assert Memory.objects.get(pk=story.newer.pk).state == "forgotten"
    assert "conflict" in walk.text("zm-events")  # the reason recorded with the retirement


def the_throughput_page(walk: Walk, *, opened: int, screenshots: bool) -> None:
    """Queue throughput (R-A4), from the queue's own link."""
    walk.home()
    walk.open_model("conflict")
    walk.click(walk.browser.find_element(By.ID, "zm-throughput"))
    assert (walk.text("zm-opened"), walk.text("zm-auto"), walk.text("zm-human")) == (str(opened), "1", "1")
    assert walk.browser.find_elements(By.CSS_SELECTOR, "svg.zm-chart rect")
    if screenshots:
        walk.shot("queue-throughput")


def granting_a_memory_to_someone(walk: Walk, story: Story) -> None:
    """Per-object grants (R-A5) from a memory's page, and the grant's result."""
    outsider = User.objects.get(username="outsider")
    assert not visible_memories(outsider).filter(pk=story.staging.pk).exists()
    walk.home()
    walk.open_model("memory")
    walk.follow("staging database", "#result_list", partial=True)
    walk.click(walk.browser.find_element(By.ID, "zm-grants"))
    walk.browser.find_element(By.NAME, "user").send_keys("outsider")
    walk.click(walk.browser.find_element(By.NAME, "submit_manage_user"))
    walk.browser.find_element(By.CSS_SELECTOR, "#id_permissions_from option[value=view_memory]").click()
    walk.browser.find_element(By.ID, "id_permissions_add").click()
    walk.click(walk.browser.find_element(By.ID, "submit"))

    assert "Permissions saved." in walk.message()
    assert visible_memories(outsider).filter(pk=story.staging.pk).exists()
    walk.follow("Object permissions", ".breadcrumbs")
    assert "outsider" in walk.text("user-permissions")
    walk.follow("Edit", "#user-permissions")  # the listing's own link to outsider's grants
    assert "Can view memory" in walk.text("id_permissions_to")


def revoking_a_token_and_reading_it_in_the_audit_log(walk: Walk) -> None:
    """Tokens → tick one → the revoke action; then Account events names who did it, and how."""
    credential_issue(
        actor=None,
        via="tests",
        user=User.objects.get(username="outsider"),
        label="laptop",
        provenance="authoritative",
        read_only=True,
        expires_at=timezone.now() + timedelta(days=30),
    )
    walk.home()
    walk.open_model("credential")
    listed = walk.text("result_list")
    assert "laptop" in listed
    assert "read-only" in listed  # the token's scope, as issued
    walk.browser.find_element(By.CSS_SELECTOR, "#result_list input.action-select").click()
    Select(walk.browser.find_element(By.NAME, "action")).select_by_value("revoke")
    walk.click(walk.browser.find_element(By.CSS_SELECTOR, "button[name=index]"))

    assert "Revoked 1 token(s)." in walk.message()
    walk.home()
    walk.open_model("accountevent")
    newest = walk.browser.find_element(By.CSS_SELECTOR, "#result_list tbody tr").text.split()
    assert newest[-6:] == ["Revoked", "root", "admin", "-", "outsider", newest[-1]]


# The walks at a full laptop screen and in a 900 px window beside a terminal (issue 34); the
# README's screenshots are the full screen's.
WIDTHS = pytest.mark.parametrize("width", [1440, 900])


@pytest.fixture
def at_width(walk: Walk, width: int) -> Iterator[Walk]:
    sized(walk, width)
    walk.checks.append(lambda: page_fits(walk))
    yield walk
    walk.browser.set_window_size(1400, 1100)


@WIDTHS
def test_a_superuser_walks_every_console_task(at_width, story, width):
    walk = at_width
    walk.login("root")
    screenshots = width == 1440

    through_the_feed_to_a_predecessor_and_restore_it(walk, story, sees_everything=True, screenshots=screenshots)
    through_the_queue_to_a_pair_and_settle_it(
        walk, story, "newer_supersedes", moderator="root", screenshots=screenshots
    )
    the_throughput_page(walk, opened=2, screenshots=screenshots)
    granting_a_memory_to_someone(walk, story)
    revoking_a_token_and_reading_it_in_the_audit_log(walk)

    # The superuser administers everything: the memories hidden from the team admin are here.
    walk.home()
    walk.open_model("memory")
    walk.filter("project", "globex")
    assert "Globex pays" in walk.text("result_list")
    assert walk.pages > 30, walk.pages


@WIDTHS
def test_a_team_admin_walks_the_same_tasks_and_sees_only_his_project(at_width, story, width):
    walk = at_width

    def nothing_hidden() -> None:
        source = walk.browser.page_source
        for name, memory in story.hidden.items():
            for trace in (memory.pk, quote(memory.pk), memory.content[:30]):
                assert trace not in source, (name, trace, walk.browser.current_url)
        assert "globex" not in source.lower(), walk.browser.current_url
        assert "relates_to" not in source  # the type of the link to alice's private note
        assert "depends_on" not in source  # the type of the link from globex

    walk.checks.append(nothing_hidden)
    walk.login("lead")
    index = walk.text("content-main")
    assert "Memories" in index
    assert "Conflicts" in index
    assert "Credentials" not in index  # no permission for what he was not given
    walk.open_model("memory")
    walk.filter("lifecycle", "All")
    assert "db-2" in walk.text("result_list")
    if os.environ.get("ZEROMEMORY_SCREENSHOTS") and width == 1440:
        walk.shot("team-admin-feed")
    walk.home()

    through_the_feed_to_a_predecessor_and_restore_it(walk, story, sees_everything=False, screenshots=False)
    through_the_queue_to_a_pair_and_settle_it(walk, story, "older_stands", moderator="lead", screenshots=False)
    the_throughput_page(walk, opened=1, screenshots=False)
    granting_a_memory_to_someone(walk, story)

    assert walk.pages > 30, walk.pages  # every one of them checked by nothing_hidden
    assert Conflict.objects.filter(older=story.hidden["globex_older"]).get().status == "pending"


def test_a_member_who_only_sees_a_memory_is_offered_no_action_on_it(walk, story):
    bob = User.objects.create_user("bob", password=PASSWORD, is_staff=True)
    membership_set(actor=None, via="tests", project=story.staging.project, user=bob, role=Role.MEMBER)
    walk.login("bob")
    walk.open_model("memory")
    walk.follow("staging database", "#result_list", partial=True)

    assert memory_id_on_page(walk) == story.staging.pk
    assert walk.browser.find_elements(By.ID, "zm-forget") == []
    assert walk.browser.find_elements(By.ID, "zm-grants") == []
    walk.home()
    walk.open_model("conflict")
    assert walk.browser.find_elements(By.ID, "result_list") == []  # nothing of alice's is his to settle


def _captures(story: Story) -> list[Memory]:
    """alice's background watcher's captures in acme, which reviews provisional writes."""
    acme = story.staging.project
    assert acme is not None
    project_set_policy(actor=None, via="tests", project=acme, review_provisional=True)
    alice = User.objects.get(username="alice")
    watcher, _ = credential_issue(actor=None, via="tests", user=alice, label="watcher", provenance="provisional")
    return [
        memory_remember(
            user=alice, credential=watcher, content=content, kind="fact", project_slug="acme", session=session
        ).memory
        for content, session in (
            ("Heard in standup: the API freeze starts on the 20th.", "standup-12"),
            ("Heard in standup: Dana owns the release notes.", "standup-12"),
            ("Heard at lunch: the budget is 40k.", "lunch-3"),
        )
    ]


def test_a_team_admin_reviews_captures_and_sets_up_a_webhook(walk, story):
    freeze, notes, budget = _captures(story)
    assert {memory.state for memory in (freeze, notes, budget)} == {"pending"}
    walk.checks.append(lambda: "globex" not in walk.browser.page_source.lower())
    walk.login("lead")

    walk.open_model("memory")
    walk.filter("lifecycle", "Pending review")
    listed = walk.text("result_list")
    assert "API freeze" in listed
    assert "budget is 40k" in listed
    walk.filter("session", "standup-12")
    assert "budget is 40k" not in walk.text("result_list")
    walk.browser.find_element(By.ID, "action-toggle").click()
    Select(walk.browser.find_element(By.NAME, "action")).select_by_value("approve_selected")
    walk.click(walk.browser.find_element(By.CSS_SELECTOR, "button[name=index]"))
    assert "2 memories approved." in walk.message()
    assert [Memory.objects.get(pk=m.pk).state for m in (freeze, notes, budget)] == ["live", "live", "pending"]

    walk.filter("session", "All")
    walk.follow("budget is 40k", "#result_list", partial=True)
    walk.click(walk.browser.find_element(By.ID, "zm-review"))
    box = walk.browser.find_element(By.ID, "id_content")
    box.clear()
    box.send_keys("The budget is 45k (confirmed by finance).")
    walk.click(walk.browser.find_element(By.ID, "zm-approve-edited"))
    assert "which replaces" in walk.message()
    corrected = Memory.objects.get(content="The budget is 45k (confirmed by finance).")
    assert memory_id_on_page(walk) == corrected.pk
    assert Memory.objects.get(pk=budget.pk).superseded_by_id == corrected.pk

    walk.home()
    walk.open_model("webhookendpoint")
    walk.click(walk.browser.find_element(By.CSS_SELECTOR, "a.addlink"))
    Select(walk.browser.find_element(By.NAME, "project")).select_by_visible_text("acme")
    walk.browser.find_element(By.NAME, "url").send_keys("https://hooks.acme.example/zeromemory")
    walk.browser.find_element(By.CSS_SELECTOR, "input[name=events][value='conflict.opened']").click()
    walk.click(walk.browser.find_element(By.NAME, "_continue"))
    endpoint = WebhookEndpoint.objects.get()
    assert (endpoint.project.slug, endpoint.events, endpoint.created_by) == (
        "acme",
        ["conflict.opened"],
        User.objects.get(username="lead"),
    )
    assert endpoint.secret in walk.browser.page_source  # shown to set up the receiver


def test_a_superuser_purges_a_memory_with_a_reason(walk, story):
    walk.login("root")
    walk.open_model("memory")
    walk.search("staging")
    walk.browser.find_element(By.CSS_SELECTOR, "#result_list input.action-select").click()
    Select(walk.browser.find_element(By.NAME, "action")).select_by_value("purge_selected")
    walk.click(walk.browser.find_element(By.CSS_SELECTOR, "button[name=index]"))
    assert "Purging erases the content, metadata and vectors of 1 memory for good." in walk.text("content-main")
    assert Memory.objects.get(pk=story.staging.pk).purged_at is None  # asked, not done

    walk.browser.find_element(By.ID, "id_reason").send_keys("It named a customer's database host.")
    walk.click(walk.browser.find_element(By.ID, "purge-confirm"))

    assert "Purged 1 memories." in walk.message()
    purged = Memory.objects.get(pk=story.staging.pk)
    assert (purged.content, purged.state) == ("[purged]", "forgotten")
    walk.home()
    walk.open_model("memory")
    walk.filter("lifecycle", "Forgotten")
    walk.follow("[purged]", "#result_list", partial=True)
    assert memory_id_on_page(walk) == story.staging.pk
    assert "purged" in walk.text("zm-events")


def test_a_team_admin_settles_a_fork_and_keeps_one_line(walk, story):
    """Two agents replaced the same version without seeing each other (R-S12): the queue shows
    it plainly, names the version both replaced, and settling it leaves one line."""
    stale = story.v1  # already replaced by story.v2
    fork = write_a_fork(story)
    assert fork.skipped == [{"dst": stale.pk, "reason": "dead", "current": story.v2.pk}]
    conflict = Conflict.objects.get(stale_version=stale)

    walk.login("lead")
    walk.open_model("conflict")
    walk.follow(str(conflict.pk), "#result_list")
    notice = walk.text("zm-fork")
    assert notice.startswith(f"Both replaced {stale.pk}.")
    assert "Monday 10:00" in walk.text("zm-stale")  # the version both replaced, shown
    assert "Friday 14:00" in walk.text("zm-older")
    assert "Thursday 09:00" in walk.text("zm-newer")
    if os.environ.get("ZEROMEMORY_SCREENSHOTS"):
        walk.shot("conflict-fork")

    walk.click(walk.browser.find_element(By.ID, "zm-newer_supersedes"))

    assert f"Conflict {conflict.pk}: newer supersedes." in walk.message()
    chain = [stale.pk, story.v2.pk, fork.memory.pk]
    assert list(Memory.objects.filter(pk__in=chain, state="live").values_list("pk", flat=True)) == [fork.memory.pk]
    assert Memory.objects.get(pk=story.v2.pk).superseded_by_id == fork.memory.pk
    walk.filter("status", "Resolved")
    walk.follow(str(conflict.pk), "#result_list")
    walk.follow(stale.pk, "#zm-fork")  # the version both replaced: its chain is one line again
    history = walk.text("zm-version-history")
    assert all(memory_id in history for memory_id in chain)


def test_a_team_admin_settles_a_disputed_slot_with_one_decision(walk, story):
    """Three values of Priya's city and two conflicts between them (issue 31): one row in the
    queue, one page with every live value newest first, one click — reversible from the retired
    value's own page."""
    alice = User.objects.get(username="alice")
    acme = story.staging.project
    oslo, bergen, lisbon = (
        make_memory(alice, f"Priya lives in {city}.", project=acme) for city in ("Oslo", "Bergen", "Lisbon")
    )
    for older, newer in ((oslo, bergen), (bergen, lisbon)):
        apply_verdict(
            older_id=older.pk,
            newer_id=newer.pk,
            judge_name="local/test",
            verdict=Verdict("contradicts", 0.61, "two cities for one person."),
        )
    first, second = Conflict.objects.filter(older__in=[oslo, bergen]).order_by("pk")

    walk.login("lead")
    walk.open_model("conflict")
    rows = walk.browser.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
    assert len(rows) == 2  # the standup's pair, and Priya's city once
    assert "Priya lives in Lisbon." in walk.text("result_list")
    walk.follow("3 values · 2 conflicts", "#result_list")

    shown = [li.get_attribute("data-memory") for li in walk.browser.find_elements(By.CSS_SELECTOR, "#zm-values > li")]
    assert shown == [lisbon.pk, bergen.pk, oslo.pk]  # newest first
    assert "Priya lives in Bergen." in walk.text("zm-value-2")
    assert "2 pending conflicts dispute these 3 live values" in walk.text("zm-group-summary")
    if os.environ.get("ZEROMEMORY_SCREENSHOTS"):
        walk.shot("conflict-group")
    walk.click(walk.browser.find_element(By.ID, "zm-stands-2"))

    assert walk.message() == (
        f"Group of conflict {first.pk}: {bergen.pk} stands; 2 other values superseded by it (2 conflicts settled)."
    )
    assert "Priya" not in walk.text("result_list")  # the group left the pending queue
    states = dict(Memory.objects.filter(pk__in=[oslo.pk, bergen.pk, lisbon.pk]).values_list("pk", "superseded_by"))
    assert states == {oslo.pk: bergen.pk, bergen.pk: None, lisbon.pk: bergen.pk}
    assert set(
        Conflict.objects.filter(pk__in=[first.pk, second.pk]).values_list(
            "status", "resolution", "resolved_by__username"
        )
    ) == {("resolved", "group_stands", "lead")}

    walk.filter("status", "Resolved")
    walk.follow(str(second.pk), "#result_list")
    walk.follow(lisbon.pk, "#zm-newer")
    assert "moderator" in walk.text("zm-version-history").lower()
    assert "stands" in walk.text("zm-events")  # the reason the decision recorded
    walk.click(walk.browser.find_element(By.ID, "zm-restore"), confirm=True)
    assert walk.message() == f"Memory {lisbon.pk} restored."
    assert Memory.objects.get(pk=lisbon.pk).state == "live"


def test_view_site_leads_from_the_console_to_the_landing_page_and_back(walk):
    """Issue 34: "View site" in the admin's header went to /, which answered 404. It leads to a
    landing page saying what this server is, with the API docs, MCP setup, the console and the
    probes, each a link that works."""
    User.objects.create_superuser("root", password=PASSWORD)
    walk.login("root")
    browser = walk.browser
    view_site = browser.find_element(By.CSS_SELECTOR, "#user-tools a[href='/']")
    assert view_site.text.casefold() == "view site"  # the admin's style writes it in capitals
    walk.click(view_site)
    assert browser.current_url == f"{walk.base_url}/"
    assert browser.title == "zeromemory"
    assert browser.find_element(By.TAG_NAME, "h1").text == "zeromemory"
    assert f"{walk.base_url}/mcp/" in browser.find_element(By.ID, "mcp").text
    walk.shot("landing-page")
    walk.follow("API reference")
    assert browser.current_url == f"{walk.base_url}/api/docs/"
    browser.back()
    walk.follow("/healthz")
    assert browser.current_url == f"{walk.base_url}/healthz"
    browser.back()
    walk.follow("admin console")
    assert browser.current_url == f"{walk.base_url}/admin/"
    assert browser.find_element(By.ID, "user-tools")


def test_a_team_admin_acts_from_the_index(walk, story):
    """Issue 34: the index says what waits for the team admin (his project's pending conflicts)
    and each count is a link to that list; the queue's throughput page is one click away."""
    walk.login("lead")
    browser = walk.browser
    pending = Conflict.objects.filter(status="pending", older__project__slug="acme").count()
    row = browser.find_element(By.ID, "zm-attention-conflicts")
    assert row.text == f"{pending} pending conflict{'' if pending == 1 else 's'}"
    walk.shot("admin-index")
    walk.click(row.find_element(By.TAG_NAME, "a"))
    assert "/admin/review/conflict/" in browser.current_url
    assert "Globex" not in browser.page_source
    walk.home()
    walk.follow("Queue throughput")
    assert browser.current_url == f"{walk.base_url}/admin/review/conflict/throughput/"
