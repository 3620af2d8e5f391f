from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
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


class MemoryFeedEventType(models.TextChoices):
    """What the event feed announces of the memories' own lifecycle (a trigger copies these
    actions of the lifecycle log, migration 0016)."""

    MEMORY_CREATED = "memory.created"
    MEMORY_SUPERSEDED = "memory.superseded"
    MEMORY_FORGOTTEN = "memory.forgotten"
    MEMORY_RESTORED = "memory.restored"
    MEMORY_SUBMITTED = "memory.submitted"
    MEMORY_APPROVED = "memory.approved"
    MEMORY_PURGED = "memory.purged"


def _feed_event_type() -> type[models.TextChoices]:
    """Every type the event feed and webhooks announce (docs/api.md, "Events and webhooks"):
    the memories' own, then those of each module named by ``settings.FEED_EVENT_SOURCES``, in
    that order, each a module's ``FEED_EVENT_TYPES`` as (member name, value) pairs, appended by
    its app's trigger through ``zeromemory_feed_append()`` (migration 0033). Built when this
    module is first imported, before the apps are ready, because the model's choices, its check
    constraint, the API's enum and the webhook endpoints' choices are all read at import time;
    the composition root (settings) names the sources, so memories imports nothing of them by
    name."""
    members = [(member.name, str(member.value)) for member in MemoryFeedEventType]
    for path in getattr(settings, "FEED_EVENT_SOURCES", ()):
        source = import_module(path)
        members.extend(source.FEED_EVENT_TYPES)
        FEED_SUBJECT_KEYS.update(dict.fromkeys((value for _, value in source.FEED_EVENT_TYPES), source.SUBJECT_KEY))
    if len({value for _, value in members}) != len(members):
        raise ImproperlyConfigured(f"FEED_EVENT_SOURCES declare an event type twice: {members}")
    # django-stubs know TextChoices as a class only, not by the Enum functional API it inherits.
    built: type[models.TextChoices] = models.TextChoices("FeedEventType", members)  # type: ignore[call-overload]
    return built


# The key under which the feed's answers and webhooks name the subject of a source's events
# (FeedEvent.subject_id), by event type, as each source declares it (its ``SUBJECT_KEY``; review:
# "conflict"). Every key appears in every event's body, null unless the event is of one of its
# types, so an event's shape does not depend on its type.
FEED_SUBJECT_KEYS: dict[str, str] = {}
FeedEventType = _feed_event_type()
FEED_SUBJECT_KEY_ORDER = tuple(dict.fromkeys(FEED_SUBJECT_KEYS.values()))


class DeliveryState(models.TextChoices):
    PENDING = "pending"
    DELIVERED = "delivered"
    DEAD = "dead"  # gave up after the last retry; an admin may send it again


class SecretPolicy(models.TextChoices):
    """What a project does with a write that holds a credential (memories.secret_guard)."""

    REDACT = "redact", "redact: store it with each credential replaced by [redacted:<type>]"
    BLOCK = "block", "block: refuse the write (400 secret_detected)"
