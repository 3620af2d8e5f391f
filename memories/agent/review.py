"""The review verbs: a maintainer approves, edits and approves, or rejects a pending write."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from memories import selectors, services
from memories.agent import contract
from memories.agent.results import memory_body, remember_body
from memories.models import Credential
from memories.platform.replicas import note_write

Body = dict[str, Any]


@dataclass(frozen=True)
class Reviewed:
    body: Body
    # A new memory was written (edited and approved), not the pending one approved as it is.
    created: bool


def approve(*, user: User, credential: Credential | None, memory_id: str, arguments: Any = None) -> Reviewed:
    fields = contract.APPROVE.parse(arguments if arguments is not None else {})
    if fields.get("content"):
        result = services.memory_approve_edited(
            user=user, credential=credential, memory_id=memory_id, content=fields["content"], reason=fields["reason"]
        )
        note_write(user=user)
        return Reviewed(body=remember_body(result), created=not result.absorbed)
    with transaction.atomic():
        services.memory_approve(user=user, credential=credential, memory_id=memory_id, reason=fields["reason"])
        note_write(user=user)
        return Reviewed(body=memory_body(selectors.memory_get(user=user, memory_id=memory_id)), created=False)


def reject(*, user: User, credential: Credential | None, memory_id: str, arguments: Any = None) -> Body:
    fields = contract.REASON.parse(arguments if arguments is not None else {})
    with transaction.atomic():
        services.memory_reject(user=user, credential=credential, memory_id=memory_id, reason=fields["reason"])
        note_write(user=user)
        return memory_body(selectors.memory_get(user=user, memory_id=memory_id))
