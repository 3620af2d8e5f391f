"""The conflict queue and a conflict's page at the widths people use: a 900 px window (a laptop
with the console beside a terminal) and 1,440 px (a full laptop screen). Issue 34 found the newer
card cut off with a horizontal scrollbar at 900 px and the History button lying over the cards and
the actions; these walks measure the laid-out page in a real Chromium instead of trusting the CSS.

``ZEROMEMORY_SCREENSHOTS=1`` writes the pages into docs/screenshots/ as ``*-900.png`` and
``*-1440.png``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from selenium.webdriver.common.by import By

from memories.models import Memory
from memories.services import LinkSpec, memory_remember
from review.judges import Verdict
from review.models import Conflict
from review.pipeline import apply_verdict
from tests.browser.console import Walk
from tests.factories import make_memory

pytestmark = pytest.mark.django_db(transaction=True)
WIDTHS = (900, 1440)

# Each box's rectangle in CSS pixels, relative to the page (scrolled away or not).
RECTS = """
const out = {};
for (const [name, selector] of Object.entries(arguments[0])) {
  out[name] = Array.from(document.querySelectorAll(selector)).map((element) => {
    const r = element.getBoundingClientRect();
    return {left: r.left + window.scrollX, top: r.top + window.scrollY, right: r.right + window.scrollX,
            bottom: r.bottom + window.scrollY, width: r.width, height: r.height};
  }).filter((r) => r.width > 0 && r.height > 0);
}
return out;
"""


def layout_problems(walk: Walk, boxes: dict[str, str]) -> list[str]:
    """What a person would see wrong: a page wider than the window, a box reaching past the
    window's right edge, or two of the named boxes lying over each other."""
    browser = walk.browser
    problems = []
    page_width, window_width = browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth];"
    )
    if page_width > window_width:
        problems.append(f"the page is {page_width} px wide in a {window_width} px window")
    rects: dict[str, list[dict[str, Any]]] = browser.execute_script(RECTS, boxes)
    flat = [(f"{name}[{i}]", rect) for name, found in rects.items() for i, rect in enumerate(found)]
    for name, rect in flat:
        if rect["right"] > window_width + 0.5:
            problems.append(f"{name} reaches {rect['right']:.0f} px, past the window's {window_width} px")
    for i, (a_name, a) in enumerate(flat):
        for b_name, b in flat[i + 1 :]:
            if a_name.split("[")[0] == b_name.split("[")[0] and "[" in a_name:
                continue  # the buttons of one row sit side by side by design; overlap checked below
            overlap_x = min(a["right"], b["right"]) - max(a["left"], b["left"])
            overlap_y = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if overlap_x > 0.5 and overlap_y > 0.5:
                problems.append(f"{a_name} and {b_name} overlap by {overlap_x:.0f} x {overlap_y:.0f} px")
    # Boxes of one kind (the action buttons) must not lie over each other either.
    for name, found in rects.items():
        for i, a in enumerate(found):
            for b in found[i + 1 :]:
                overlap_x = min(a["right"], b["right"]) - max(a["left"], b["left"])
                overlap_y = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                if overlap_x > 0.5 and overlap_y > 0.5:
                    problems.append(f"two {name} overlap by {overlap_x:.0f} x {overlap_y:.0f} px")
    return problems


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


def sized(walk: Walk, width: int) -> None:
    walk.browser.set_window_size(width, 1000)
    # The window's size includes the browser's frame; what matters is the page's viewport.
    inner = walk.browser.execute_script("return window.innerWidth;")
    walk.browser.set_window_size(width + (width - inner), 1000)
    assert walk.browser.execute_script("return window.innerWidth;") == width


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
    shots = os.environ.get("ZEROMEMORY_SCREENSHOTS")
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
    fork = memory_remember(
        user=alice,
        credential=None,
        content="The deploy window is Thursday 09:00 UTC.",
        kind="fact",
        project_slug="acme",
        links=[LinkSpec("supersedes", stale.pk)],
    )
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
