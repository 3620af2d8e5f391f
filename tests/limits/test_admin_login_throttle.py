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
        "login-account:root",
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


def _login_via(client: Client, username: str, password: str, forwarded_for: str, proxy: str = "10.0.0.1") -> Any:
    return client.post(
        LOGIN, {"username": username, "password": password}, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=forwarded_for
    )


def test_not_behind_a_proxy_a_forwarded_for_header_is_ignored_and_cannot_dodge_the_throttle(admin_user: User) -> None:
    # The default: no trusted proxy. A client that invents a new X-Forwarded-For per attempt is
    # still one address, the one that connected.
    for number in range(3):
        _login_via(Client(), "root", "wrong", forwarded_for=f"198.51.100.{number}")

    refused = _login_via(Client(), "root", "correct horse battery", forwarded_for="198.51.100.99")

    assert refused.status_code == 429
    assert sorted(RateLimitBucket.objects.values_list("key", flat=True)) == [
        "login-account:root",
        "login-address:10.0.0.1",
        "login:10.0.0.1:root",
    ]


def test_behind_a_trusted_proxy_each_client_behind_it_has_its_own_allowance(admin_user: User, settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    sprayer, colleague = "203.0.113.5", "198.51.100.7"
    # A password sprayer behind the proxy spends its address's allowance over ten usernames,
    # putting whatever it likes in front of what the proxy appends.
    for number in range(10):
        for _ in range(3):
            _login_via(Client(), f"guess{number}", "wrong", forwarded_for=f"192.0.2.{number}, {sprayer}")

    assert _login_via(Client(), "root", "correct horse battery", forwarded_for=sprayer).status_code == 429
    assert (
        _login_via(Client(), "root", "correct horse battery", forwarded_for=f"{colleague}, {sprayer}").status_code
        == 429
    )
    # Another admin behind the same proxy is not locked out.
    assert _login_via(Client(), "root", "correct horse battery", forwarded_for=colleague).status_code == 302
    assert RateLimitBucket.objects.filter(key=f"login-address:{sprayer}").exists()
    assert not RateLimitBucket.objects.filter(key__contains="10.0.0.1").exists()  # the proxy's own address


def test_with_two_trusted_proxies_the_client_is_the_second_address_from_the_right(
    admin_user: User, settings: Any
) -> None:
    settings.TRUSTED_PROXY_COUNT = 2
    _login_via(Client(), "root", "wrong", forwarded_for="192.0.2.1, 203.0.113.5, 10.0.0.2")
    # A request that did not come through both proxies, or whose entry is not an address, is
    # counted against the address that connected, as without the setting.
    _login_via(Client(), "root", "wrong", forwarded_for="203.0.113.6")
    _login_via(Client(), "root", "wrong", forwarded_for="192.0.2.1, not-an-address, 10.0.0.2")

    assert sorted(RateLimitBucket.objects.values_list("key", flat=True)) == [
        "login-account:root",
        "login-address:10.0.0.1",
        "login-address:203.0.113.5",
        "login:10.0.0.1:root",
        "login:203.0.113.5:root",
    ]


def test_one_account_guessed_from_many_addresses_runs_out_across_them(admin_user: User) -> None:
    # Three tries per address would never stop a guesser with many addresses: the account's
    # allowance over all of them (4 x 3) does.
    answers = [_login(Client(), "root", "wrong", address=f"10.0.1.{n}").status_code for n in range(13)]

    assert answers == [200] * 12 + [429]
    assert _login(Client(), "root", "correct horse battery", address="10.0.2.1").status_code == 429
    User.objects.create_superuser("ops", password="another good one")
    assert _login(Client(), "ops", "another good one", address="10.0.1.1").status_code == 302


def test_the_addresses_of_one_ipv6_prefix_count_as_one(admin_user: User) -> None:
    answers = [_login(Client(), "root", "wrong", address=f"2001:db8:0:7::{n:x}").status_code for n in range(1, 5)]

    assert answers == [200, 200, 200, 429]
    # Another /64 has its own allowance.
    assert _login(Client(), "root", "correct horse battery", address="2001:db8:0:8::1").status_code == 302


@pytest.mark.django_db(transaction=True)
def test_concurrent_guesses_get_no_more_password_checks_than_the_allowance(settings: Any) -> None:
    """Counted and checked in one step: ten guesses racing from one address get three password
    checks (a check before any of them counted let every one through)."""
    import threading

    from django.db import connection

    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_FAILURE_WINDOW_SECONDS = 900
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    User.objects.create_superuser("root", password="correct horse battery")
    barrier = threading.Barrier(10)
    answers: list[int] = []

    def guess() -> None:
        client = Client()
        barrier.wait()
        try:
            answers.append(_login(client, "root", "wrong").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=guess) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == [200] * 3 + [429] * 7
