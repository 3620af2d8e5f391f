"""Writes. Each is a keyword-only ``<thing>_<verb>`` function running in one transaction,
appending its lifecycle events inside it and scheduling side effects on commit."""

from memories.errors import NotLive
from memories.services.accounts import (
    PROJECT_POLICIES,
    credential_issue,
    credential_relabel,
    credential_revoke,
    membership_remove,
    membership_set,
    project_create,
    project_rename,
    project_set_policy,
    webhook_endpoint_remove,
    webhook_endpoint_save,
)
from memories.services.feed_epoch import feed_epoch_advance, feed_epoch_check
from memories.services.links import link_create
from memories.services.moderation import memory_approve, memory_approve_edited, memory_reject
from memories.services.purge import Purged, memory_purge
from memories.services.remember import LinkSpec, RememberResult, content_vectors, memory_remember
from memories.services.retire import memory_forget, memory_restore
from memories.services.sentences import memory_sentences_store
from memories.services.supersede import Supersession, memory_supersede, memory_supersede_many

__all__ = [
    "PROJECT_POLICIES",
    "LinkSpec",
    "NotLive",
    "Purged",
    "RememberResult",
    "Supersession",
    "content_vectors",
    "credential_issue",
    "credential_relabel",
    "credential_revoke",
    "feed_epoch_advance",
    "feed_epoch_check",
    "link_create",
    "membership_remove",
    "membership_set",
    "memory_approve",
    "memory_approve_edited",
    "memory_forget",
    "memory_purge",
    "memory_reject",
    "memory_remember",
    "memory_restore",
    "memory_sentences_store",
    "memory_supersede",
    "memory_supersede_many",
    "project_create",
    "project_rename",
    "project_set_policy",
    "webhook_endpoint_remove",
    "webhook_endpoint_save",
]
