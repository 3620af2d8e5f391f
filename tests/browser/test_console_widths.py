"""The conflict queue and a conflict's page at the widths people use: a 900 px window (a laptop
with the console beside a terminal) and 1,440 px (a full laptop screen). Issue 34 found the newer
card cut off with a horizontal scrollbar at 900 px and the History button lying over the cards and
the actions; these walks measure the laid-out page in a real Chromium instead of trusting the CSS.

``ZEROMEMORY_SCREENSHOTS=1`` writes the pages at 900 px into docs/screenshots/ as ``*-900.png``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from selenium.webdriver.common.by import By

from memories.models import Memory
from review.judges import Verdict
from review.models import Conflict
from review.pipeline import apply_verdict
from tests.browser.console import Walk, layout_problems, sized, write_a_fork
from tests.factories import make_memory

pytestmark = pytest.mark.django_db(transaction=True)
WIDTHS = (900, 1440)

CONFLICT_PAGE = {
    "tools": ".object-tools li",
    "verdict": ".zm-verdict",
    "older": "#zm-older",
    "newer": "#zm-newer",
    "buttons": ".zm-actions button",
    "fields": "fieldset.module",
}
QUEUE_PAGE = {
    "table": "#result_list",
    "filters": "#changelist-filter",
    "tools": ".object-tools li",
    "search": "#changelist-search",
}


@pytest.fixture
def window(walk: Walk) -> Any:
    yield walk
    walk.browser.set_window_size(1400, 1100)  # the module's other walks keep their window


@pytest.mark.parametrize("width", WIDTHS)
def test_the_queue_and_a_conflict_read_at_this_width(window, story, width):
    walk = window
    alice = User.objects.get(username="alice")
    acme = story.staging.project
    first = make_memory(alice, "The incident channel is #ops-incidents.", project=acme)
    again = make_memory(alice, "The incident channel is #ops-incidents on Slack.", project=acme)
    apply_verdict(
        older_id=first.pk,
        newer_id=again.pk,
        judge_name="local/test",
        verdict=Verdict("duplicate", 0.7, "the same channel, said twice."),
    )
    duplicate = Conflict.objects.get(older=first)
    walk.login("lead")
    sized(walk, width)
    walk.home()
    walk.open_model("conflict")
    assert layout_problems(walk, QUEUE_PAGE) == []
    shots = os.environ.get("ZEROMEMORY_SCREENSHOTS") and width == 900  # the walks take the full screen's
    if shots:
        walk.shot(f"conflict-queue-{width}")

    # Each row leads to its conflict by what the conflict is about: its memories' previews.
    row = walk.browser.find_element(By.XPATH, f"//table[@id='result_list']//tr[.//a[contains(., '{first.content}')]]")
    links = {a.text: a.get_attribute("href") for a in row.find_elements(By.CSS_SELECTOR, "a")}
    assert links[first.content] == links[again.content]
    assert links[first.content].endswith(f"/admin/review/conflict/{duplicate.pk}/change/")
    walk.follow(story.newer.content, "#result_list")
    assert walk.browser.current_url.endswith(f"/admin/review/conflict/{story.acme_conflict.pk}/change/")
    assert walk.text("zm-verdict").startswith(
        "The judge thinks the newer memory supersedes the older one (0.72 confidence)"
    )
    assert layout_problems(walk, CONFLICT_PAGE) == []
    if shots:
        walk.shot(f"conflict-side-by-side-{width}")

    walk.follow("Conflict queue", ".breadcrumbs")
    walk.follow(again.content, "#result_list")
    assert walk.text("zm-verdict").startswith(
        "The judge thinks the newer memory repeats the older one (0.70 confidence)"
    )
    assert layout_problems(walk, CONFLICT_PAGE) == []

    # A fork: both writers replaced one version, and the page says which.
    stale = story.v1
    fork = write_a_fork(story)
    assert fork.skipped[0]["current"] == story.v2.pk
    forked = Conflict.objects.get(stale_version=stale)
    walk.follow("Conflict queue", ".breadcrumbs")
    walk.follow(fork.memory.content, "#result_list")
    assert walk.browser.current_url.endswith(f"/admin/review/conflict/{forked.pk}/change/")
    assert walk.text("zm-fork").startswith(f"Both replaced {stale.pk}")
    assert (
        walk.link(stale.pk, "#zm-fork")
        .get_attribute("href")
        .endswith(f"/admin/memories/memory/{quote(stale.pk)}/change/")
    )
    assert layout_problems(walk, CONFLICT_PAGE) == []
    if shots:
        walk.shot(f"conflict-fork-{width}")
    assert Memory.objects.get(pk=stale.pk).superseded_by_id == story.v2.pk  # only looked at
