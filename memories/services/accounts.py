"""Projects, memberships and API credentials. Each change names its actor (None for an operator
at the shell) and appends an ``AccountEvent`` in its own transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from memories.choices import AccountAction
from memories.errors import NotLive, ValidationFailed
from memories.models import AccountEvent, Credential, Membership, Project, WebhookEndpoint
from memories.platform import webhook_targets
from memories.platform.tokens import generate_token, hash_token


def _audit(
    *,
    action: AccountAction,
    actor: User | None,
    via: str,
    project: Project | None = None,
    user: User | None = None,
    credential: Credential | None = None,
    data: dict[str, Any] | None = None,
) -> None:
    AccountEvent.objects.create(
        action=action,
        actor=actor,
        via=via,
        project_slug=project.slug if project else "",
        username=user.get_username() if user else "",
        credential_prefix=credential.prefix if credential else "",
        data=data or {},
    )


def project_create(*, actor: User | None, via: str, slug: str, name: str = "") -> tuple[Project, bool]:
    """Create the project, or return the existing one (idempotent; a new ``name`` renames it).
    ``True`` if created."""
    with transaction.atomic():
        project, created = Project.objects.get_or_create(slug=slug, defaults={"name": name or slug})
        if created:
            _audit(action=AccountAction.PROJECT_CREATED, actor=actor, via=via, project=project)
        elif name:
            project = project_rename(actor=actor, via=via, project=project, name=name)
    return project, created


def project_rename(*, actor: User | None, via: str, project: Project, name: str) -> Project:
    """Give ``project`` a new display name (its slug, which agents use, never changes)."""
    with transaction.atomic():
        old_name = Project.objects.select_for_update().values_list("name", flat=True).get(pk=project.pk)
        if old_name != name:
            Project.objects.filter(pk=project.pk).update(name=name)
            _audit(
                action=AccountAction.PROJECT_RENAMED,
                actor=actor,
                via=via,
                project=project,
                data={"from": old_name, "to": name},
            )
        project.refresh_from_db()
    return project


# A project's policies: settable by its admins and operators, each change audited.
PROJECT_POLICIES = ("secret_policy", "review_provisional")


def project_set_policy(*, actor: User | None, via: str, project: Project, **policies: Any) -> Project:
    """Change some of ``project``'s policies (``PROJECT_POLICIES``); audited, one entry per change."""
    unknown = set(policies) - set(PROJECT_POLICIES)
    if unknown:
        raise ValidationFailed(f"Unknown project policy: {', '.join(sorted(unknown))}.")
    with transaction.atomic():
        current = Project.objects.select_for_update().values(*policies).get(pk=project.pk) if policies else {}
        changed = {name: value for name, value in policies.items() if current[name] != value}
        if changed:
            Project.objects.filter(pk=project.pk).update(**changed)
            for name, value in changed.items():
                _audit(
                    action=AccountAction.PROJECT_POLICY_CHANGED,
                    actor=actor,
                    via=via,
                    project=project,
                    data={"policy": name, "from": current[name], "to": value},
                )
        project.refresh_from_db()
    return project


def membership_set(*, actor: User | None, via: str, project: Project, user: User, role: str) -> tuple[Membership, bool]:
    """Make ``user`` a member of ``project`` with ``role`` (idempotent; updates the role)."""
    with transaction.atomic():
        membership, created = Membership.objects.select_for_update().get_or_create(
            project=project, user=user, defaults={"role": role}
        )
        if created:
            _audit(
                action=AccountAction.MEMBER_ADDED, actor=actor, via=via, project=project, user=user, data={"role": role}
            )
        elif membership.role != role:
            old_role, membership.role = membership.role, role
            membership.save(update_fields=["role"])
            _audit(
                action=AccountAction.ROLE_CHANGED,
                actor=actor,
                via=via,
                project=project,
                user=user,
                data={"from": old_role, "to": role},
            )
    return membership, created


def membership_remove(*, actor: User | None, via: str, project: Project, user: User) -> bool:
    """Take ``user`` out of ``project``; ``False`` if they were not a member."""
    with transaction.atomic():
        removed, _ = Membership.objects.filter(project=project, user=user).delete()
        if removed:
            _audit(action=AccountAction.MEMBER_REMOVED, actor=actor, via=via, project=project, user=user)
    return bool(removed)


def credential_issue(
    *,
    actor: User | None,
    via: str,
    user: User,
    label: str = "",
    provenance: str,
    projects: Sequence[Project] = (),
    read_only: bool = False,
    expires_at: datetime | None = None,
) -> tuple[Credential, str]:
    """A new API token for ``user``. The token is returned once and only its hash is kept.

    ``projects``, ``read_only`` and ``expires_at`` narrow it (memories.visibility): projects the
    user is a member of, no write at all, refused after that moment.
    """
    outside = [project.slug for project in projects if not project.memberships.filter(user=user).exists()]
    if outside:
        raise ValidationFailed(
            f"{user.get_username()} is not a member of {', '.join(outside)}; a token reaches no further than its user.",
            fields={"projects": [f"not a member: {', '.join(outside)}"]},
        )
    if expires_at is not None and expires_at <= timezone.now():
        raise ValidationFailed("A token cannot expire in the past.", fields={"expires_at": ["in the past"]})
    token, prefix = generate_token()
    with transaction.atomic():
        credential = Credential.objects.create(
            user=user,
            label=label,
            prefix=prefix,
            token_hash=hash_token(token),
            provenance=provenance,
            read_only=read_only,
            expires_at=expires_at,
        )
        credential.projects.set(projects)
        _audit(
            action=AccountAction.TOKEN_ISSUED,
            actor=actor,
            via=via,
            user=user,
            credential=credential,
            # The scope, when the token has one (a full token's event keeps its old shape).
            data={
                "label": label,
                "provenance": provenance,
                **({"projects": sorted(project.slug for project in projects)} if projects else {}),
                **({"read_only": True} if read_only else {}),
                **({"expires_at": expires_at.isoformat()} if expires_at is not None else {}),
            },
        )
    return credential, token


def credential_relabel(*, actor: User | None, via: str, credential: Credential, label: str) -> Credential:
    with transaction.atomic():
        old_label = Credential.objects.select_for_update().values_list("label", flat=True).get(pk=credential.pk)
        if old_label != label:
            Credential.objects.filter(pk=credential.pk).update(label=label)
            _audit(
                action=AccountAction.TOKEN_RELABELLED,
                actor=actor,
                via=via,
                user=credential.user,
                credential=credential,
                data={"from": old_label, "to": label},
            )
        credential.refresh_from_db()
    return credential


def credential_revoke(*, actor: User | None, via: str, credential: Credential) -> Credential:
    with transaction.atomic():
        updated = Credential.objects.filter(pk=credential.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
        if not updated:
            raise NotLive("The token was already revoked.")
        credential.refresh_from_db()
        _audit(action=AccountAction.TOKEN_REVOKED, actor=actor, via=via, user=credential.user, credential=credential)
    return credential


def _endpoint_data(endpoint: WebhookEndpoint) -> dict[str, Any]:
    # Never the secret: the audit log is read by more people than the endpoint's page.
    return {"url": endpoint.url, "events": list(endpoint.events), "active": endpoint.active}


def webhook_endpoint_save(*, actor: User | None, via: str, endpoint: WebhookEndpoint) -> WebhookEndpoint:
    """Add or change a project's webhook endpoint, audited: it sends the project's memories out.
    A URL that is, or resolves to, an address the sender refuses is refused here too (the sender
    checks again at every attempt: DNS changes). An unchanged URL is not checked again, so an
    endpoint refused since can still be deactivated."""
    unchanged = endpoint.pk is not None and WebhookEndpoint.objects.filter(pk=endpoint.pk, url=endpoint.url).exists()
    if not unchanged and (refusal := webhook_targets.url_refusal(endpoint.url)) is not None:
        raise ValidationFailed(refusal, fields={"url": [refusal]})
    with transaction.atomic():
        adding = endpoint.pk is None
        if adding and endpoint.created_by_id is None:
            endpoint.created_by = actor
        endpoint.save()
        _audit(
            action=AccountAction.WEBHOOK_ADDED if adding else AccountAction.WEBHOOK_CHANGED,
            actor=actor,
            via=via,
            project=endpoint.project,
            data=_endpoint_data(endpoint),
        )
    return endpoint


def webhook_endpoint_remove(*, actor: User | None, via: str, endpoint: WebhookEndpoint) -> None:
    """Remove an endpoint with its deliveries' log (deactivating it keeps the log)."""
    with transaction.atomic():
        _audit(
            action=AccountAction.WEBHOOK_REMOVED,
            actor=actor,
            via=via,
            project=endpoint.project,
            data=_endpoint_data(endpoint),
        )
        endpoint.delete()
