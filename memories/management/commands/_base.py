from __future__ import annotations

from django.contrib.auth.models import User
from django.core.management.base import CommandError

from memories.models import Project


def get_user(username: str) -> User:
    try:
        return User.objects.get_by_natural_key(username)
    except User.DoesNotExist:
        raise CommandError(f"No user named {username!r}.") from None


def get_project(slug: str) -> Project:
    try:
        return Project.objects.get(slug=slug)
    except Project.DoesNotExist:
        raise CommandError(f"No project {slug!r}. Create it with: python manage.py create_project {slug}") from None
