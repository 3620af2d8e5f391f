"""``Authorization: Bearer <token>`` for the REST API. The header is read, and the token looked
up, by ``memories.platform.tokens.credential_for_header``, the same reader MCP uses
(``memories.mcp.views``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from memories.models import Credential
from memories.platform.tokens import BEARER, BearerRefused, credential_for_header


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = BEARER

    def authenticate(self, request: Request) -> tuple[User, Credential] | None:
        try:
            credential = credential_for_header(authentication.get_authorization_header(request).decode("latin-1"))
        except BearerRefused as refusal:
            raise exceptions.AuthenticationFailed(refusal.message) from None
        if credential is None:
            return None
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
