"""Review before provisional writes count: a maintainer approves, rejects, or edits and approves
a pending memory (docs/api.md, "review of provisional writes").

A project with ``review_provisional`` stores its provisional writes (background captures) as
``pending``: seen by their writer and the project's maintainers only, never recalled, never in
``similar_existing``, never judged. Approving makes one live (and sends it to the hygiene judge);
rejecting forgets it (a restore sends it back to review, never straight in); editing writes the
moderator's corrected version and retires the pending one in its favour, a declared supersede
by the moderator.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from memories import hooks
from memories.choices import EventAction, LinkOrigin, Provenance, State
from memories.errors import Forbidden, NotLive, memory_not_found
from memories.ids import is_memory_id
from memories.locks import lock_memories
from memories.models import Credential, Memory
from memories.services.lifecycle import event_append, retire, retire_by_successor
from memories.services.remember import RememberResult, memory_remember
from memories.visibility import Action, maintains, visible_memories


def _locked_pending(user: User, credential: Credential | None, memory_id: str) -> Memory:
    """The pending memory, locked: 404 if ``user`` may not see it, 403 unless they maintain its
    project (its writer too, if only a member) and use an authoritative token, 409 if it is not
    pending."""
    if credential is not None and credential.provenance != Provenance.AUTHORITATIVE:
        raise Forbidden("A provisional token cannot review: use a maintainer's own token or the admin.")
    if not is_memory_id(memory_id) or not visible_memories(user).filter(pk=memory_id).exists():
        raise memory_not_found(memory_id)
    memory = lock_memories([memory_id])[memory_id]
    may_moderate = visible_memories(user, Action.MODERATE).filter(pk=memory_id).exists() and (
        user.is_superuser or maintains(user, memory.project_id)
    )
    if not may_moderate:
        raise Forbidden("Only a maintainer of the memory's project may review it.")
    if memory.state != State.PENDING:
        raise NotLive(f"{memory_id} is not waiting for review (it is {memory.state}).", memory_id=memory_id)
    return memory


def memory_approve(*, user: User, credential: Credential | None, memory_id: str, reason: str = "") -> Memory:
    """pending → live: it counts from now on, and the hygiene judge sees it."""
    with transaction.atomic():
        memory = _locked_pending(user, credential, memory_id)
        now = timezone.now()
        Memory.objects.filter(pk=memory.pk, state=State.PENDING).update(state=State.LIVE, updated_at=now)
        memory.state, memory.updated_at = State.LIVE, now
        event_append(memory=memory, action=EventAction.APPROVED, actor=user, credential=credential, reason=reason)
        for hook in hooks.on_undeclared_write_committed:
            transaction.on_commit(lambda hook=hook: hook(memory))  # type: ignore[misc]
    return memory


def memory_reject(*, user: User, credential: Credential | None, memory_id: str, reason: str = "") -> Memory:
    """pending → forgotten, reversibly: a restore sends it back to review."""
    with transaction.atomic():
        memory = _locked_pending(user, credential, memory_id)
        closes_loop = retire(memory=memory, successor=None, now=timezone.now(), from_state=State.PENDING)
        event_append(
            memory=memory,
            action=EventAction.FORGOTTEN,
            actor=user,
            credential=credential,
            reason=reason,
            data={"loop_closed": closes_loop, "review": "rejected"},
        )
    return memory


def memory_approve_edited(
    *, user: User, credential: Credential | None, memory_id: str, content: str, reason: str = ""
) -> RememberResult:
    """The moderator's corrected version, written as theirs (authoritative), replacing the
    pending one in one transaction: a declared supersede by the moderator."""
    with transaction.atomic():
        pending = _locked_pending(user, credential, memory_id)
        fields: dict[str, Any] = {
            "kind": pending.kind,
            "project_slug": pending.project.slug if pending.project is not None else None,
            "visibility": pending.visibility,
            "session": pending.session,
            "metadata": pending.metadata,
            "valid_from": pending.valid_from,
            "valid_until": pending.valid_until,
        }
        # The moderator's own write (authoritative: their token is, or the admin has none).
        result = memory_remember(user=user, credential=credential, content=content, **fields)
        if result.memory.pk == pending.pk:  # pragma: no cover - a pending memory is never absorbed into
            raise NotLive(f"{memory_id} could not be replaced.", memory_id=memory_id)
        retire_by_successor(
            target=pending,
            successor=result.memory,
            origin=LinkOrigin.MODERATOR,
            actor=user,
            credential=credential,
            reason=reason or "edited and approved in review",
            from_state=State.PENDING,
        )
        result.superseded.append(pending.pk)
    return result
