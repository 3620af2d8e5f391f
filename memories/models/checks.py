"""The CHECK constraints' shared helper: a column holds one of its choices."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


def in_choices(field: str, choices: type[models.TextChoices]) -> Q:
    """A CHECK condition: ``field`` holds one of ``choices`` (a choice field's own validation
    runs only in forms and serializers; the database holds every other path to it)."""
    return Q(**{f"{field}__in": choices.values})
