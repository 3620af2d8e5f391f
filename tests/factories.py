"""Factories for the domain. Memories go through the real service, so they get real
embeddings, fingerprints and events exactly as an API write would."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from memories import services
from memories.choices import Provenance
from memories.models import Credential, Memory, Project


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")


class ProjectFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Project
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"project-{n}")
    name = factory.LazyAttribute(lambda project: project.slug.title())


def issue_token(user: User, *, provisional: bool = False, label: str = "") -> tuple[Credential, str]:
    provenance = Provenance.PROVISIONAL if provisional else Provenance.AUTHORITATIVE
    return services.credential_issue(actor=None, via="tests", user=user, label=label, provenance=provenance)


def make_memory(
    owner: User,
    content: str = "The deploy window is Monday 10:00 UTC.",
    *,
    credential: Credential | None = None,
    project: Project | None = None,
    kind: str = "fact",
    **fields: Any,
) -> Memory:
    """A memory written through remember, exactly as the API would store it."""
    result = services.memory_remember(
        user=owner,
        credential=credential,
        content=content,
        kind=kind,
        project_slug=project.slug if project else None,
        **fields,
    )
    assert not result.absorbed, "make_memory wrote a restatement; give each memory its own content"
    return result.memory
