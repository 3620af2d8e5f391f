from __future__ import annotations

from django.db import models


class Kind(models.TextChoices):
    FACT = "fact"
    DECISION = "decision"
    PREFERENCE = "preference"
    PLAN = "plan"
    PROCEDURE = "procedure"
    OBSERVATION = "observation"
    TASK = "task"
    OPEN_QUESTION = "open-question", "open question"


# Kinds that are open loops: they carry a loop_status from creation.
LOOP_KINDS = frozenset({Kind.TASK, Kind.OPEN_QUESTION})


class Visibility(models.TextChoices):
    PROJECT = "project"
    PRIVATE = "private"


class Provenance(models.TextChoices):
    AUTHORITATIVE = "authoritative"
    PROVISIONAL = "provisional"


class State(models.TextChoices):
    LIVE = "live"
    SUPERSEDED = "superseded"
    FORGOTTEN = "forgotten"
    # A provisional write into a project that reviews them: kept apart until a maintainer
    # approves it (docs/api.md, "review before provisional writes count").
    PENDING = "pending"


class LoopStatus(models.TextChoices):
    OPEN = "open"
    CLOSED = "closed"


class LinkType(models.TextChoices):
    SUPERSEDES = "supersedes"
    RELATES_TO = "relates_to"
    DERIVED_FROM = "derived_from"
    DEPENDS_ON = "depends_on"
    CONTRADICTS = "contradicts"


class OnStale(models.TextChoices):
    """What a write does with a supersedes target that another write already replaced (R-S11)."""

    SKIP = "skip"  # store anyway, report the target as dead with its current head (a fork: R-S12)
    REJECT = "reject"  # compare-and-set: 409 stale_target, nothing stored
    FOLLOW = "follow"  # supersede the chain's live head instead


class LinkOrigin(models.TextChoices):
    DECLARED = "declared"
    HYGIENE = "hygiene"
    MODERATOR = "moderator"
    LINK = "link"


class Role(models.TextChoices):
    MEMBER = "member"
    MAINTAINER = "maintainer"


class AccountAction(models.TextChoices):
    PROJECT_CREATED = "project_created"
    PROJECT_RENAMED = "project_renamed"
    PROJECT_POLICY_CHANGED = "project_policy_changed"
    MEMBER_ADDED = "member_added"
    ROLE_CHANGED = "role_changed"
    MEMBER_REMOVED = "member_removed"
    TOKEN_ISSUED = "token_issued"
    TOKEN_RELABELLED = "token_relabelled"
    TOKEN_REVOKED = "token_revoked"
    WEBHOOK_ADDED = "webhook_added"
    WEBHOOK_CHANGED = "webhook_changed"
    WEBHOOK_REMOVED = "webhook_removed"
    SECRET_BLOCKED = "secret_blocked"


class EventAction(models.TextChoices):
    CREATED = "created"
    SUPERSEDED = "superseded"
    FORGOTTEN = "forgotten"
    RESTORED = "restored"
    LOOP_CLOSED = "loop_closed"
    LOOP_REOPENED = "loop_reopened"
    LINKED = "linked"
    LINK_REVERTED = "link_reverted"
    IMPORTED = "imported"
    SECRET_REDACTED = "secret_redacted"
    SUBMITTED = "submitted"  # stored pending review (or sent back to it by a restore)
    APPROVED = "approved"
    PURGED = "purged"
    # A write named a stale version under on_stale "skip" while its chain had another live head
    # (SPEC R-S12): data {"stale", "current"}. The record check_integrity and the sweep read.
    FORKED = "forked"


# The origins of a supersedes link that retired its destination (a link made with POST /links/
# is a graph edge only): the version chains of SPEC §8.
RETIRING_ORIGINS = frozenset({LinkOrigin.DECLARED, LinkOrigin.HYGIENE, LinkOrigin.MODERATOR})

# The lifecycle entries that bring a memory into the store: every memory has one (SPEC §8).
CREATION_ACTIONS = frozenset({EventAction.CREATED, EventAction.IMPORTED, EventAction.SUBMITTED})


class FeedEventType(models.TextChoices):
    """What the event feed and webhooks announce (docs/api.md, "Events and webhooks"). The
    memory types come from the lifecycle log (a trigger copies those actions); the conflict
    types from the review queue's table (review's trigger)."""

    MEMORY_CREATED = "memory.created"
    MEMORY_SUPERSEDED = "memory.superseded"
    MEMORY_FORGOTTEN = "memory.forgotten"
    MEMORY_RESTORED = "memory.restored"
    MEMORY_SUBMITTED = "memory.submitted"
    MEMORY_APPROVED = "memory.approved"
    MEMORY_PURGED = "memory.purged"
    CONFLICT_OPENED = "conflict.opened"
    CONFLICT_RESOLVED = "conflict.resolved"


class DeliveryState(models.TextChoices):
    PENDING = "pending"
    DELIVERED = "delivered"
    DEAD = "dead"  # gave up after the last retry; an admin may send it again


class SecretPolicy(models.TextChoices):
    """What a project does with a write that holds a credential (memories.secret_guard)."""

    REDACT = "redact", "redact: store it with each credential replaced by [redacted:<type>]"
    BLOCK = "block", "block: refuse the write (400 secret_detected)"
