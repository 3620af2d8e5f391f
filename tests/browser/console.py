"""The console's walker and its story, shared by the browser tests (the fixtures that build them
are in conftest.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.models import Permission, User
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.wait import WebDriverWait

from memories.choices import Role
from memories.models import Memory
from memories.services import LinkSpec, link_create, membership_set, memory_remember, project_create
from review.judges import Verdict
from review.models import Conflict
from review.pipeline import apply_verdict
from tests.factories import make_memory

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "correct horse battery"


@dataclass
class Story:
    v1: Memory  # the deploy window, superseded by v2 (a declared supersede)
    v2: Memory
    staging: Memory
    older: Memory  # the acme conflict's pair
    newer: Memory
    acme_conflict: Conflict
    # What the team admin (lead, maintainer of acme only) must never meet: the memories' ids
    # (raw or quoted) and contents, and the other project's name.
    hidden: dict[str, Memory] = field(default_factory=dict)


def make_story() -> Story:
    User.objects.create_superuser("root", password=PASSWORD)
    alice = User.objects.create_user("alice", password=PASSWORD)
    lead = User.objects.create_user("lead", password=PASSWORD, is_staff=True)
    # The model permissions a team admin would be given; global permissions never widen what
    # he sees (memories.visibility), so the walk below proves that too.
    lead.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label__in=["memories", "review"],
            codename__in=["view_memory", "change_memory", "view_conflict", "change_conflict"],
        )
    )
    User.objects.create_user("outsider")
    acme, _ = project_create(actor=None, via="tests", slug="acme", name="Acme")
    globex, _ = project_create(actor=None, via="tests", slug="globex", name="Globex")
    membership_set(actor=None, via="tests", project=acme, user=alice, role=Role.MEMBER)
    membership_set(actor=None, via="tests", project=acme, user=lead, role=Role.MAINTAINER)
    membership_set(actor=None, via="tests", project=globex, user=alice, role=Role.MEMBER)

    v1 = make_memory(alice, "The deploy window is Monday 10:00 UTC.", project=acme)
    v2 = memory_remember(
        user=alice,
        credential=None,
        content="The deploy window is Friday 14:00 UTC (moved from Monday).",
        kind="fact",
        project_slug="acme",
        links=[LinkSpec("supersedes", v1.pk)],
    ).memory
    staging = make_memory(alice, "Acme's staging database is db-2.", project=acme)
    make_memory(alice, "Acme's on-call rotation changes on Mondays.", project=acme, kind="procedure")
    make_memory(lead, "Acme's release train leaves every other Tuesday.", project=acme)
    note = make_memory(alice, "My note: the deploy window may move to Thursday.", project=acme, visibility="private")
    link_create(user=alice, src_id=v2.pk, dst_id=note.pk, type="relates_to")
    invoices = make_memory(alice, "Globex pays invoices within 45 days.", project=globex)
    link_create(user=alice, src_id=invoices.pk, dst_id=v2.pk, type="depends_on")

    def judged(older: Memory, newer: Memory, verdict: Verdict) -> None:
        apply_verdict(older_id=older.pk, newer_id=newer.pk, judge_name="local/test", verdict=verdict)

    older = make_memory(alice, "The standup is at 09:30 in the Lisbon room.", project=acme)
    newer = make_memory(alice, "The standup is at 09:45 in the Lisbon room.", project=acme)
    judged(older, newer, Verdict("supersedes", 0.72, "supersedes (72%) over duplicate; the time changed."))
    vpn_old = make_memory(alice, "The VPN endpoint is vpn1.acme.example.", project=acme)
    vpn_new = make_memory(alice, "The VPN endpoint moved to vpn2.acme.example.", project=acme)
    judged(vpn_old, vpn_new, Verdict("supersedes", 0.97, "supersedes (97%); 'moved to' says it is an update."))
    globex_older = make_memory(alice, "Globex's invoices go to billing@globex.example.", project=globex)
    globex_newer = make_memory(alice, "Globex's invoices go to ap@globex.example.", project=globex)
    judged(globex_older, globex_newer, Verdict("contradicts", 0.61, "two addresses for one inbox."))
    assert Memory.objects.get(pk=vpn_old.pk).state == "superseded"  # auto-resolved
    return Story(
        v1=v1,
        v2=v2,
        staging=staging,
        older=older,
        newer=newer,
        acme_conflict=Conflict.objects.get(older=older),
        hidden={"note": note, "invoices": invoices, "globex_older": globex_older, "globex_newer": globex_newer},
    )


class Walk:
    """A person at the console: types only the login page and /admin/, then clicks."""

    def __init__(self, browser: webdriver.Chrome, base_url: str, tmp_path: Path) -> None:
        self.browser = browser
        self.base_url = base_url
        self.tmp_path = tmp_path
        self.checks: list[Callable[[], None]] = []
        self.pages = 0

    def login(self, username: str) -> None:
        browser = self.browser
        browser.delete_all_cookies()
        browser.get(f"{self.base_url}/admin/login/")
        browser.find_element(By.NAME, "username").send_keys(username)
        browser.find_element(By.NAME, "password").send_keys(PASSWORD)
        self.click(browser.find_element(By.CSS_SELECTOR, "input[type=submit]"))
        assert self.browser.current_url == f"{self.base_url}/admin/"
        assert browser.find_element(By.ID, "user-tools")

    def arrived(self) -> None:
        self.pages += 1
        for check in self.checks:
            check()

    def click(self, element: WebElement, *, confirm: bool = False) -> None:
        """Click, accept the confirmation the button asks for, and wait for the next page: the
        click only starts the request, and reading on at once would read the old page."""
        page = self.browser.find_element(By.TAG_NAME, "html")
        element.click()
        if confirm:
            WebDriverWait(self.browser, 10).until(expected_conditions.alert_is_present())
            self.browser.switch_to.alert.accept()
        self.wait_for_next_page(page)
        self.arrived()

    def wait_for_next_page(self, page: WebElement) -> None:
        # Asked about an element while the page is being torn down, chromedriver sometimes
        # answers "unhandled inspector error" instead of "stale element"; that too means the
        # old page is going, so ask again rather than fail the walk.
        WebDriverWait(self.browser, 10, ignored_exceptions=[WebDriverException]).until(
            expected_conditions.staleness_of(page)
        )

    def link(self, text: str, within: str = "body", *, partial: bool = False) -> WebElement:
        area = self.browser.find_element(By.CSS_SELECTOR, within)
        return area.find_element(By.PARTIAL_LINK_TEXT if partial else By.LINK_TEXT, text)

    def follow(self, text: str, within: str = "body", *, partial: bool = False) -> None:
        self.click(self.link(text, within, partial=partial))

    def home(self) -> None:
        self.click(self.browser.find_element(By.CSS_SELECTOR, "#site-name a"))
        assert self.browser.current_url == f"{self.base_url}/admin/"

    def open_model(self, model: str) -> None:
        """From the index, the model's list (the app list's row, as a person picks it)."""
        self.click(self.browser.find_element(By.CSS_SELECTOR, f"#content-main tr.model-{model} th a"))

    def filter(self, title: str, choice: str) -> None:
        self.follow(choice, f'#changelist-filter details[data-filter-title="{title}"]')

    def search(self, words: str) -> None:
        box = self.browser.find_element(By.ID, "searchbar")
        box.send_keys(words)
        page = self.browser.find_element(By.TAG_NAME, "html")
        box.send_keys(Keys.ENTER)
        self.wait_for_next_page(page)
        self.arrived()

    def text(self, element_id: str) -> str:
        return self.browser.find_element(By.ID, element_id).text

    def message(self) -> str:
        return self.browser.find_element(By.CSS_SELECTOR, "ul.messagelist").text

    def shot(self, name: str) -> None:
        folder = SCREENSHOTS if os.environ.get("ZEROMEMORY_SCREENSHOTS") else self.tmp_path
        folder.mkdir(parents=True, exist_ok=True)
        assert self.browser.save_screenshot(str(folder / f"{name}.png"))


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


def sized(walk: Walk, width: int) -> None:
    walk.browser.set_window_size(width, 1000)
    # The window's size includes the browser's frame; what matters is the page's viewport.
    inner = walk.browser.execute_script("return window.innerWidth;")
    walk.browser.set_window_size(width + (width - inner), 1000)
    assert walk.browser.execute_script("return window.innerWidth;") == width


def page_fits(walk: Walk) -> None:
    """A check for every page of a walk: nothing makes the page wider than the window."""
    page_width, window_width = walk.browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth];"
    )
    assert page_width <= window_width, (walk.browser.current_url, page_width, window_width)


def write_a_fork(story: Story) -> Any:
    """alice replaces the deploy window's first version, which story.v2 already replaced: a fork
    (SPEC R-S12), a second live version of one fact, and its conflict."""
    return memory_remember(
        user=User.objects.get(username="alice"),
        credential=None,
        content="The deploy window is Thursday 09:00 UTC.",
        kind="fact",
        project_slug="acme",
        links=[LinkSpec("supersedes", story.v1.pk)],
    )
