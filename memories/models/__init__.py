"""The domain's tables. Writes go through memories.services, reads through memories.selectors.

Lifecycle invariants of SPEC §8 are held by the database itself (CHECK constraints here,
append-only triggers in the migrations), so no code path, however careless, can store a
live memory with a successor or rewrite an event.

One module per family, each importing only those above it:

* ``accounts`` — projects, memberships, credentials (tokens) and the account audit log;
* ``memory`` — the memories, their sentence vectors, links, lifecycle log and sharing grants;
* ``feed`` — the event feed, its epoch, and the webhooks that deliver it;
* ``operations`` — idempotency records, rate-limit buckets, worker heartbeats, maintenance runs.

Every name is re-exported here: code and migrations import ``memories.models`` as before
(migration 0016 names ``memories.models.new_webhook_secret``).
"""

from memories.models.accounts import AccountEvent, Credential, Membership, Project, TokenScope, token_scope
from memories.models.checks import in_choices
from memories.models.feed import (
    FeedEpoch,
    FeedEvent,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
    new_webhook_secret,
)
from memories.models.memory import (
    MAX_CONTENT_LENGTH,
    MAX_METADATA_BYTES,
    MAX_SESSION_LENGTH,
    MEMORY_FIELDS,
    TOMBSTONE,
    Link,
    Memory,
    MemoryEvent,
    MemoryGroupObjectPermission,
    MemorySentence,
    MemoryUserObjectPermission,
)
from memories.models.operations import IdempotencyRecord, MaintenanceRun, RateLimitBucket, WorkerHeartbeat

__all__ = [
    "MAX_CONTENT_LENGTH",
    "MAX_METADATA_BYTES",
    "MAX_SESSION_LENGTH",
    "MEMORY_FIELDS",
    "TOMBSTONE",
    "AccountEvent",
    "Credential",
    "FeedEpoch",
    "FeedEvent",
    "IdempotencyRecord",
    "Link",
    "MaintenanceRun",
    "Membership",
    "Memory",
    "MemoryEvent",
    "MemoryGroupObjectPermission",
    "MemorySentence",
    "MemoryUserObjectPermission",
    "Project",
    "RateLimitBucket",
    "TokenScope",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WorkerHeartbeat",
    "in_choices",
    "new_webhook_secret",
    "token_scope",
]
