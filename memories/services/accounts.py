"""Projects, memberships and API credentials."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from memories.errors import Conflict, ErrorCode
from memories.models import Credential, Membership, Project
from memories.platform.tokens import generate_token, hash_token


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
