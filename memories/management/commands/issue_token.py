from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from memories.choices import Provenance
from memories.errors import ValidationFailed
from memories.models import Credential, Project
from memories.services import credential_issue

from ._base import get_user

_DURATION = re.compile(r"^(\d+)([mhdw])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_duration(text: str) -> timedelta:
    """``90m``, ``12h``, ``30d`` or ``8w``."""
    found = _DURATION.match(text.strip())
    if found is None or int(found.group(1)) == 0:
        raise CommandError(f"--expires takes a positive duration such as 90m, 12h, 30d or 8w, not {text!r}.")
    return timedelta(**{_UNITS[found.group(2)]: int(found.group(1))})


class Command(BaseCommand):
    help = (
        "Issue a new API token for USERNAME and print it, alone, on the last line of output. "
        "The token is shown only this once; only its hash is stored. Tokens are authoritative "
        "unless --provisional (for background watchers, which may not declare supersedes). "
        "--project (repeatable), --read-only and --expires narrow what the token may see and do."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--create-user", action="store_true", help="Create the user if it does not exist.")
        parser.add_argument("--provisional", action="store_true", help="Issue a provisional (watcher) token.")
        parser.add_argument("--name", default="", help="A label to find and revoke the token by.")
        parser.add_argument(
            "--project",
            action="append",
            default=[],
            metavar="SLUG",
            help="Only this project's memories (repeat for several; the user must be a member). "
            "The token then sees no personal memories and writes only into these projects.",
        )
        parser.add_argument("--read-only", action="store_true", help="Read and recall only: every write is refused.")
        parser.add_argument("--expires", metavar="DURATION", help="Refused after this long: 90m, 12h, 30d, 8w.")

    def handle(
        self,
        *args: Any,
        username: str,
        create_user: bool,
        provisional: bool,
        name: str,
        project: list[str],
        read_only: bool,
        expires: str | None,
        **options: Any,
    ) -> None:
        expires_at = timezone.now() + parse_duration(expires) if expires else None
        User = get_user_model()
        if create_user and not User.objects.filter(username=username).exists():
            User.objects.create_user(username=username)
            self.stdout.write(f"Created user {username}")
        user = get_user(username)
        if name and Credential.objects.filter(user=user, label=name, revoked_at__isnull=True).exists():
            raise CommandError(f"{username} already has an active token labelled {name!r}; revoke it or pick another.")
        projects = list(Project.objects.filter(slug__in=project))
        missing = sorted(set(project) - {found.slug for found in projects})
        if missing:
            raise CommandError(f"No project {', '.join(missing)}.")
        provenance = Provenance.PROVISIONAL if provisional else Provenance.AUTHORITATIVE
        try:
            credential, token = credential_issue(
                actor=None,
                via="manage.py issue_token",
                user=user,
                label=name,
                provenance=provenance,
                projects=projects,
                read_only=read_only,
                expires_at=expires_at,
            )
        except ValidationFailed as exc:
            raise CommandError(exc.message) from exc
        scope = [f"projects {', '.join(sorted(project))}"] if project else []
        scope += ["read-only"] if read_only else []
        scope += [f"expires {expires_at:%Y-%m-%d %H:%M} UTC"] if expires_at is not None else []
        self.stdout.write(
            f"Issued {provenance} token {credential.prefix}… for {username}"
            + (f" labelled {name!r}" if name else "")
            + (f" ({'; '.join(scope)})" if scope else "")
            + ". Store it now; it will not be shown again:"
        )
        self.stdout.write(token)
