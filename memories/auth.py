"""``Authorization: Bearer <token>`` for the REST API and MCP."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from memories.models import Credential
from memories.tokens import hashes_match, parse_prefix

# last_used_at is informational: writing it on every request would add a write to every read.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def credential_for_token(token: str) -> Credential | None:
    """The active credential whose token this is, or None. Constant time in the secret."""
    prefix = parse_prefix(token)
    if prefix is None:
        return None
    candidates = Credential.objects.select_related("user").filter(prefix=prefix, revoked_at__isnull=True)
    match = None
    for credential in candidates:
        if hashes_match(token, credential.token_hash):
            match = credential
    if match is None or not match.user.is_active:
        return None
    now = timezone.now()
    if match.last_used_at is None or now - match.last_used_at > LAST_USED_RESOLUTION:
        Credential.objects.filter(pk=match.pk).update(last_used_at=now)
        match.last_used_at = now
    return match


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[User, Credential] | None:
        header = authentication.get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        parts = header.split()
        if len(parts) != 2 or parts[0].lower() != self.keyword.lower():
            raise exceptions.AuthenticationFailed("Use 'Authorization: Bearer <token>'.")
        credential = credential_for_token(parts[1])
        if credential is None:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        return credential.user, credential

    def authenticate_header(self, request: Request) -> str:
        # A WWW-Authenticate header makes DRF answer 401 rather than 403.
        return f'{self.keyword} realm="zeromemory"'


def request_user(request: Request) -> User:
    """The authenticated caller (views run behind IsAuthenticated)."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    return user


def request_credential(request: Any) -> Credential:
    credential = getattr(request, "auth", None)
    if not isinstance(credential, Credential):
        raise exceptions.NotAuthenticated()
    return credential
