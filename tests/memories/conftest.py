from __future__ import annotations

import pytest

from memories.models import Project
from tests.conftest import Persona
from tests.memories.endpoints import Objects, make_objects


@pytest.fixture
def objects(alice: Persona, dave: Persona, acme: Project) -> Objects:
    """One of each object the API's write endpoints act on (tests.memories.endpoints)."""
    return make_objects(alice.user, alice.credential, acme)
