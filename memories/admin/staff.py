"""Who is at the console."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest


def staff_user(request: HttpRequest) -> User:
    """The signed-in user of an admin page. The admin's login gate lets only active staff through,
    so anything else reaching a page is a wiring fault: refused with 403, never served as nobody."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("Sign in to use the console.")
    return user
