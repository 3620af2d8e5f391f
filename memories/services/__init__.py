"""Writes. Each is a keyword-only ``<thing>_<verb>`` function running in one transaction,
appending its lifecycle events inside it and scheduling side effects on commit."""

from memories.services.accounts import credential_issue, credential_revoke, membership_set, project_create
from memories.services.remember import LinkSpec, RememberResult, memory_remember

__all__ = [
    "LinkSpec",
    "RememberResult",
    "credential_issue",
    "credential_revoke",
    "membership_set",
    "memory_remember",
    "project_create",
]
