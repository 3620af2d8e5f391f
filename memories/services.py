"""Writes. Each is a keyword-only ``<thing>_<verb>`` function running in one transaction,
appending its lifecycle events inside it and scheduling side effects on commit."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from memories.choices import LOOP_KINDS, EventAction, Kind, LoopStatus, Visibility
from memories.embeddings import EmbeddingError, embed_one
from memories.errors import Conflict, ErrorCode, ServiceUnavailable
from memories.models import Credential, Membership, Memory, MemoryEvent, Project
from memories.text import content_fingerprint
from memories.tokens import generate_token, hash_token


def _embed(content: str) -> list[float]:
    try:
        return embed_one(content)
    except EmbeddingError as exc:
        raise ServiceUnavailable(
            "The embedding model failed; nothing was stored. Retry the request.",
            code=ErrorCode.EMBEDDING_FAILED,
        ) from exc


def memory_create(
    *,
    user: User,
    credential: Credential | None,
    content: str,
    kind: str = Kind.FACT,
    project: Project | None = None,
    visibility: str | None = None,
    session: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Memory:
    """Store one memory (already validated) and its ``created`` event."""
    if visibility is None:
        visibility = Visibility.PROJECT if project is not None else Visibility.PRIVATE
    embedding = _embed(content)
    with transaction.atomic():
        memory = Memory.objects.create(
            content=content,
            content_fingerprint=content_fingerprint(content),
            kind=kind,
            owner=user,
            project=project,
            visibility=visibility,
            provenance=credential.provenance if credential else "authoritative",
            credential=credential,
            session=session,
            session_key=session or (credential.default_session if credential else ""),
            metadata=metadata or {},
            embedding=embedding,
            loop_status=LoopStatus.OPEN if kind in LOOP_KINDS else None,
        )
        MemoryEvent.objects.create(memory=memory, action=EventAction.CREATED, actor=user, credential=credential)
    return memory


def project_create(*, slug: str, name: str = "") -> tuple[Project, bool]:
    """Create the project, or return the existing one (idempotent). ``True`` if created."""
    with transaction.atomic():
        project, created = Project.objects.get_or_create(slug=slug, defaults={"name": name or slug})
        if not created and name and project.name != name:
            project.name = name
            project.save(update_fields=["name"])
    return project, created


def membership_set(*, project: Project, user: User, role: str) -> tuple[Membership, bool]:
    """Make ``user`` a member of ``project`` with ``role`` (idempotent; updates the role)."""
    with transaction.atomic():
        membership, created = Membership.objects.select_for_update().get_or_create(
            project=project, user=user, defaults={"role": role}
        )
        if not created and membership.role != role:
            membership.role = role
            membership.save(update_fields=["role"])
    return membership, created


def credential_issue(*, user: User, label: str = "", provenance: str) -> tuple[Credential, str]:
    """A new API token for ``user``. The token is returned once and only its hash is kept."""
    token, prefix = generate_token()
    credential = Credential.objects.create(
        user=user, label=label, prefix=prefix, token_hash=hash_token(token), provenance=provenance
    )
    return credential, token


def credential_revoke(*, credential: Credential) -> Credential:
    with transaction.atomic():
        updated = Credential.objects.filter(pk=credential.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
        credential.refresh_from_db()
    if not updated:
        raise Conflict("The token was already revoked.", code=ErrorCode.INVALID)
    return credential
