"""Fixtures of the browser tests: one headless Chromium for the whole run, the console's story and
a walker at a live server."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from tests.browser.console import Story, Walk, make_story


@pytest.fixture(scope="session")
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


@pytest.fixture(autouse=True)
def _no_background_hygiene(settings) -> None:
    """The story sets its judgments up itself; the real judge stays out of it."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def story(db) -> Story:
    return make_story()


@pytest.fixture
def walk(browser, live_server, tmp_path) -> Walk:
    return Walk(browser, live_server.url, tmp_path)
