"""Who may do what: projects, their members, the credentials (tokens) agents use, and the
audit log of account changes (AccountEvent)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.db.models import Q
from django.utils import timezone

from memories.choices import (
    AccountAction,
    Provenance,
    Role,
    SecretPolicy,
)
from memories.models.checks import in_choices


class Project(models.Model):
    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # The secret guard's policy for writes into the project (personal memories: redact).
    secret_policy = models.CharField(max_length=8, choices=SecretPolicy.choices, default=SecretPolicy.REDACT)
    # Provisional writes (background captures) into the project land pending, and count only
    # once a maintainer approves them (memories.services.moderation).
    review_provisional = models.BooleanField(default=False)
    members: models.ManyToManyField[User, Membership] = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="projects"
    )

    class Meta:
        ordering = ["slug"]
        constraints = [
            models.CheckConstraint(
                condition=in_choices("secret_policy", SecretPolicy), name="project_secret_policy_valid"
            )
        ]

    def __str__(self) -> str:
        return self.slug


class Membership(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "user"], name="membership_unique"),
            models.CheckConstraint(condition=in_choices("role", Role), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.project} ({self.role})"


@dataclass(frozen=True)
class TokenScope:
    """What the token a request came with narrows its user to (set on the request's user by
    ``memories.platform.tokens``; read by ``memories.visibility``)."""

    project_ids: frozenset[int] | None  # None: not narrowed to projects
    read_only: bool


def token_scope(user: object) -> TokenScope | None:
    """The scope of the token ``user`` came with, or None (a full token, a session, no one)."""
    scope = getattr(user, "token_scope", None)
    return scope if isinstance(scope, TokenScope) else None


class Credential(models.Model):
    """An API token. Only its SHA-256 is stored; ``prefix`` identifies it to people."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="credentials")
    label = models.CharField(max_length=100, blank=True)
    prefix = models.CharField(max_length=16, db_index=True)
    token_hash = models.CharField(max_length=64, unique=True)
    provenance = models.CharField(max_length=16, choices=Provenance.choices, default=Provenance.AUTHORITATIVE)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The token's scope; it only ever narrows what its user may see and do (memories.visibility).
    # Projects: none = all the user's memories; some = only memories of those projects (and
    # writes only into them). Read-only: no write of any kind. Expired: refused like a revoked one.
    projects = models.ManyToManyField(Project, blank=True, related_name="+")
    read_only = models.BooleanField(default=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    # Read-your-writes with read replicas (memories.platform.replicas): the primary's WAL position
    # (bytes) after the user's last write. Read with the token on every request, so routing a read
    # costs no query of its own; written on all the user's tokens, only when replicas are set.
    read_after_lsn = models.BigIntegerField(null=True, blank=True, editable=False)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=in_choices("provenance", Provenance), name="credential_provenance_valid"),
            models.UniqueConstraint(
                fields=["user", "label"],
                condition=Q(revoked_at__isnull=True) & ~Q(label=""),
                name="credential_active_label_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.label or 'unlabelled'}, {self.user})"

    @property
    def default_session(self) -> str:
        """The session a write without ``session`` belongs to (SPEC R-D1)."""
        return f"credential:{self.pk}"


class AccountEvent(models.Model):
    """One entry of the append-only audit log of projects, memberships and tokens (a trigger
    refuses UPDATE and DELETE). What was changed is kept by name, so the entry outlives it."""

    action = models.CharField(max_length=24, choices=AccountAction.choices)
    # None: an operator at the shell; ``via`` says which command.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    via = models.CharField(max_length=64)
    project_slug = models.CharField(max_length=64, blank=True)
    username = models.CharField(max_length=150, blank=True)
    credential_prefix = models.CharField(max_length=16, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=in_choices("action", AccountAction), name="account_event_action_valid")
        ]

    def __str__(self) -> str:
        return f"{self.action} at {self.created_at:%Y-%m-%d %H:%M:%S}"
