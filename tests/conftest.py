"""Personas and clients shared by every test.

alice  — member of project "acme" (she owns most of the memories in the stories);
bob    — member of "acme" too: sees alice's project memories, cannot retire them;
carol  — no project in common with alice: sees nothing of hers;
dave   — maintainer of "acme": may retire and moderate others' memories there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from memories import services
from memories.choices import Role
from memories.models import Credential, Project
from tests.factories import ProjectFactory, UserFactory, issue_token


@dataclass
class Persona:
    user: User
    credential: Credential
    token: str
    client: APIClient

    @property
    def username(self) -> str:
        return self.user.get_username()


def _persona(username: str) -> Persona:
    user: User = UserFactory.create(username=username)
    credential, token = issue_token(user, label="agent")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return Persona(user=user, credential=credential, token=token, client=client)


@pytest.fixture(autouse=True)
def _tasks_run_immediately(settings: Any) -> None:
    """Background tasks run inline in tests (after commit, like the real queue)."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture
def acme(db: None) -> Project:
    project: Project = ProjectFactory.create(slug="acme", name="Acme")
    return project


@pytest.fixture
def alice(acme: Project) -> Persona:
    persona = _persona("alice")
    services.membership_set(actor=None, via="tests", project=acme, user=persona.user, role=Role.MEMBER)
    return persona


@pytest.fixture
def bob(acme: Project) -> Persona:
    persona = _persona("bob")
    services.membership_set(actor=None, via="tests", project=acme, user=persona.user, role=Role.MEMBER)
    return persona


@pytest.fixture
def carol(db: None) -> Persona:
    persona = _persona("carol")
    elsewhere: Project = ProjectFactory.create(slug="globex", name="Globex")
    services.membership_set(actor=None, via="tests", project=elsewhere, user=persona.user, role=Role.MEMBER)
    return persona


@pytest.fixture
def dave(acme: Project) -> Persona:
    persona = _persona("dave")
    services.membership_set(actor=None, via="tests", project=acme, user=persona.user, role=Role.MAINTAINER)
    return persona


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()
