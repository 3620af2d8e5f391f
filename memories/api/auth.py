"""``Authorization: Bearer <token>`` for the REST API (MCP reads the same header itself:
``memories.mcp.views``); tokens are looked up by ``memories.platform.tokens``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from memories.models import Credential
from memories.platform.tokens import credential_for_token


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
            raise exceptions.AuthenticationFailed("Invalid, revoked or expired token.")
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
