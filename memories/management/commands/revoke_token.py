from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from memories.models import Credential
from memories.services import credential_revoke

from ._base import get_user


class Command(BaseCommand):
    help = (
        "Revoke one of USERNAME's active API tokens, named by its label or, failing that, by "
        "its prefix (the characters after 'zm_' shown when it was issued; a unique start of "
        "them is enough). A revoked token is refused from then on."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("token", metavar="token-prefix-or-label")
        parser.add_argument("username")

    def handle(self, *args: Any, token: str, username: str, **options: Any) -> None:
        user = get_user(username)
        active = Credential.objects.filter(user=user, revoked_at__isnull=True)
        matches = list(active.filter(label=token)) if token else []
        if not matches:
            prefix = token.removeprefix("zm_").split("_")[0]
            matches = list(active.filter(prefix__startswith=prefix)) if prefix else []
        if not matches:
            raise CommandError(f"{username} has no active token labelled or prefixed {token!r}.")
        if len(matches) > 1:
            names = ", ".join(f"{c.prefix} ({c.label or 'unlabelled'})" for c in matches)
            raise CommandError(f"{token!r} matches several tokens: {names}. Give more of the prefix.")
        credential = credential_revoke(actor=None, via="manage.py revoke_token", credential=matches[0])
        self.stdout.write(f"Revoked token {credential.prefix}… ({credential.label or 'unlabelled'}) of {username}")
