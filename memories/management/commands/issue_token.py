from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from memories.choices import Provenance
from memories.models import Credential
from memories.services import credential_issue

from ._base import get_user


class Command(BaseCommand):
    help = (
        "Issue a new API token for USERNAME and print it, alone, on the last line of output. "
        "The token is shown only this once; only its hash is stored. Tokens are authoritative "
        "unless --provisional (for background watchers, which may not declare supersedes)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--create-user", action="store_true", help="Create the user if it does not exist.")
        parser.add_argument("--provisional", action="store_true", help="Issue a provisional (watcher) token.")
        parser.add_argument("--name", default="", help="A label to find and revoke the token by.")

    def handle(
        self, *args: Any, username: str, create_user: bool, provisional: bool, name: str, **options: Any
    ) -> None:
        User = get_user_model()
        if create_user and not User.objects.filter(username=username).exists():
            User.objects.create_user(username=username)
            self.stdout.write(f"Created user {username}")
        user = get_user(username)
        if name and Credential.objects.filter(user=user, label=name, revoked_at__isnull=True).exists():
            raise CommandError(f"{username} already has an active token labelled {name!r}; revoke it or pick another.")
        provenance = Provenance.PROVISIONAL if provisional else Provenance.AUTHORITATIVE
        credential, token = credential_issue(
            actor=None, via="manage.py issue_token", user=user, label=name, provenance=provenance
        )
        self.stdout.write(
            f"Issued {provenance} token {credential.prefix}… for {username}"
            + (f" labelled {name!r}" if name else "")
            + ". Store it now; it will not be shown again:"
        )
        self.stdout.write(token)
