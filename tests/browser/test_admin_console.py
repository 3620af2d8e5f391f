"""The admin console in a real headless Chromium (Debian's chromium + chromedriver)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from memories.choices import Role
from memories.models import Memory
from memories.services import LinkSpec, membership_set, memory_remember, project_create
from review.judges import Verdict
from review.models import Conflict
from review.pipeline import apply_verdict
from tests.factories import make_memory

pytestmark = pytest.mark.django_db(transaction=True)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1100",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.implicitly_wait(5)
    yield driver
    driver.quit()


def shot(browser: webdriver.Chrome, name: str, tmp_path: Path) -> None:
    folder = SCREENSHOTS if os.environ.get("ZEROMEMORY_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(folder / f"{name}.png"))


def login(browser: webdriver.Chrome, live_server, username: str) -> None:
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/admin/login/")
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys("correct horse battery")
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    # The click only starts the POST; navigating on before the session cookie lands would race
    # the login and open the next page anonymously.
    WebDriverWait(browser, 10).until(lambda driver: "/admin/login/" not in driver.current_url)
    assert browser.find_element(By.ID, "user-tools")


@pytest.fixture(autouse=True)
def _no_background_hygiene(settings) -> None:
    """The story sets its conflict up itself; the real judge stays out of it."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def story(db):
    admin = User.objects.create_superuser("root", password="correct horse battery")
    alice = User.objects.create_user("alice", password="correct horse battery")
    lead = User.objects.create_user("lead", password="correct horse battery", is_staff=True)
    acme, _ = project_create(slug="acme", name="Acme")
    globex, _ = project_create(slug="globex", name="Globex")
    membership_set(project=acme, user=alice, role=Role.MEMBER)
    membership_set(project=acme, user=lead, role=Role.MAINTAINER)
    membership_set(project=globex, user=alice, role=Role.MEMBER)
    v1 = make_memory(alice, "The deploy window is Monday 10:00 UTC.", project=acme)
    v2 = memory_remember(
        user=alice,
        credential=None,
        content="The deploy window is Friday 14:00 UTC (moved from Monday).",
        kind="fact",
        project_slug="acme",
        links=[LinkSpec("supersedes", v1.pk)],
    ).memory
    make_memory(alice, "Acme's staging database is db-2.", project=acme)
    make_memory(alice, "Globex pays invoices within 45 days.", project=globex)
    older = make_memory(alice, "The standup is at 09:30 in the Lisbon room.", project=acme)
    newer = make_memory(alice, "The standup is at 09:45 in the Lisbon room.", project=acme)
    apply_verdict(
        older_id=older.pk,
        newer_id=newer.pk,
        judge_name="local/test",
        verdict=Verdict("supersedes", 0.72, "supersedes (72%) over duplicate; the time changed."),
    )
    return {"v1": v1, "v2": v2, "older": older, "newer": newer, "admin": admin}


def test_an_admin_filters_the_feed_opens_a_chain_and_resolves_a_conflict(browser, live_server, story, tmp_path):
    login(browser, live_server, "root")

    browser.get(f"{live_server.url}/admin/memories/memory/")
    feed = browser.find_element(By.ID, "result_list").text
    assert "Friday 14:00" in feed
    assert "Monday 10:00 UTC." not in feed  # superseded versions hidden by default
    shot(browser, "dashboard-feed", tmp_path)

    browser.find_element(By.LINK_TEXT, "Superseded").click()
    assert "Monday 10:00" in browser.find_element(By.ID, "result_list").text
    browser.get(f"{live_server.url}/admin/memories/memory/?q=staging")
    assert "db-2" in browser.find_element(By.ID, "result_list").text

    browser.get(f"{live_server.url}/admin/memories/memory/{story['v2'].pk}/change/")
    history = browser.find_element(By.ID, "zm-version-history").text
    assert story["v1"].pk in history
    assert story["v2"].pk in history
    assert "declared" in history.lower()
    shot(browser, "memory-version-history", tmp_path)

    browser.get(f"{live_server.url}/admin/review/conflict/")
    assert "standup" in browser.find_element(By.ID, "result_list").text.lower()
    browser.find_element(By.CSS_SELECTOR, "#result_list tbody tr th a, #result_list tbody tr td a").click()
    assert "09:30" in browser.find_element(By.ID, "zm-older").text
    assert browser.find_elements(By.CSS_SELECTOR, "#zm-newer ins.zm-diff")
    shot(browser, "conflict-side-by-side", tmp_path)
    browser.find_element(By.ID, "zm-newer_supersedes").click()
    assert "newer supersedes" in browser.find_element(By.CSS_SELECTOR, "ul.messagelist").text

    assert Conflict.objects.get().resolution == "newer_supersedes"
    assert Memory.objects.get(pk=story["older"].pk).superseded_by_id == story["newer"].pk

    browser.get(f"{live_server.url}/admin/review/conflict/throughput/")
    assert browser.find_element(By.ID, "zm-human").text == "1"
    assert browser.find_elements(By.CSS_SELECTOR, "svg.zm-chart rect")
    shot(browser, "queue-throughput", tmp_path)


def test_forget_and_restore_from_a_memory_page(browser, live_server, story, tmp_path):
    login(browser, live_server, "root")
    memory = Memory.objects.get(content="Acme's staging database is db-2.")

    browser.get(f"{live_server.url}/admin/memories/memory/{memory.pk}/change/")
    browser.find_element(By.ID, "zm-forget").click()
    browser.switch_to.alert.accept()
    assert browser.find_element(By.ID, "zm-restore")
    assert Memory.objects.get(pk=memory.pk).state == "forgotten"
    browser.find_element(By.ID, "zm-restore").click()
    browser.switch_to.alert.accept()
    browser.find_element(By.ID, "zm-forget")

    assert Memory.objects.get(pk=memory.pk).state == "live"


def test_a_team_admin_sees_only_their_projects(browser, live_server, story, tmp_path):
    login(browser, live_server, "lead")

    browser.get(f"{live_server.url}/admin/memories/memory/")
    feed = browser.find_element(By.ID, "result_list").text
    browser.get(f"{live_server.url}/admin/memories/memory/{Memory.objects.get(project__slug='globex').pk}/change/")

    assert "db-2" in feed
    assert "Globex" not in feed
    assert "Globex pays" not in browser.page_source
    shot(browser, "team-admin-feed", tmp_path)


def test_the_feed_makes_a_fixed_number_of_queries_however_many_rows(client, story, django_assert_max_num_queries):
    client.force_login(story["admin"])
    for n in range(30):
        make_memory(User.objects.get(username="alice"), f"Extra fact number {n} about the billing system")

    with django_assert_max_num_queries(12):
        response = client.get("/admin/memories/memory/")

    assert response.status_code == 200
    assert response.content.count(b"Extra fact number") == 30


def test_per_object_grants_are_editable_on_a_memorys_page(client, story):
    from memories.visibility import visible_memories

    outsider = User.objects.create_user("outsider")
    client.force_login(story["admin"])
    memory = story["v2"]
    url = f"/admin/memories/memory/{memory.pk}/permissions/"
    assert not visible_memories(outsider).filter(pk=memory.pk).exists()

    chosen = client.post(url, {"user": "outsider", "submit_manage_user": "submit"})
    granted = client.post(chosen["Location"], {"permissions": ["view_memory"]})

    assert client.get(url).status_code == 200
    assert granted.status_code == 302
    assert visible_memories(outsider).filter(pk=memory.pk).exists()
