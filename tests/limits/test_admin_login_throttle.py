"""Failed admin logins are throttled per username and address: past the allowance the form
refuses without checking the password (429, Retry-After), other people are unaffected."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from memories.models import RateLimitBucket

LOGIN = "/admin/login/"


@pytest.fixture
def admin_user(db: None, settings: Any) -> User:
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_FAILURE_WINDOW_SECONDS = 900
    # Each attempt runs the password hasher; the production one is slow on purpose.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return User.objects.create_superuser("root", password="correct horse battery")


def _login(client: Client, username: str, password: str, address: str = "10.0.0.1") -> Any:
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_past_the_allowance_even_the_right_password_is_refused(admin_user: User) -> None:
    client = Client()
    assert [_login(client, "root", "wrong").status_code for _ in range(3)] == [200] * 3

    refused = _login(client, "root", "correct horse battery")

    assert refused.status_code == 429
    # A third of the window buys one more try, counted from the first failure a moment ago.
    assert 295 <= int(refused["Retry-After"]) <= 300
    assert b"Too many failed logins. Try again in 5 minute(s)." in refused.content
    assert "_auth_user_id" not in client.session


def test_a_successful_login_within_the_allowance_works_and_costs_nothing(admin_user: User) -> None:
    client = Client()
    _login(client, "root", "wrong")
    response = _login(client, "root", "correct horse battery")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(admin_user.pk)
    assert sorted(RateLimitBucket.objects.values_list("key", flat=True)) == [
        "login-address:10.0.0.1",
        "login:10.0.0.1:root",
    ]


def test_the_same_username_from_another_address_and_other_usernames_are_unaffected(admin_user: User) -> None:
    for _ in range(3):
        _login(Client(), "root", "wrong", address="10.0.0.1")
    assert _login(Client(), "root", "correct horse battery", address="10.0.0.2").status_code == 302
    User.objects.create_superuser("ops", password="another good one")
    assert _login(Client(), "ops", "another good one", address="10.0.0.1").status_code == 302


def test_an_address_spraying_many_usernames_runs_out_too(admin_user: User) -> None:
    # Three failures per username, ten usernames: the address's allowance of 30 is spent.
    for number in range(10):
        for _ in range(3):
            _login(Client(), f"guess{number}", "wrong")
    assert _login(Client(), "root", "correct horse battery").status_code == 429
    assert _login(Client(), "root", "correct horse battery", address="10.0.0.2").status_code == 302
