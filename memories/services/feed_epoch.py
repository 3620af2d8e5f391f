"""The event feed's epoch (memories.models.FeedEpoch): moved on when the database's history no
longer continues the one its feed positions count in."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import connections, transaction
from django.utils import timezone

from memories.models import FeedEpoch

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ClusterIdentity:
    # None where the role may not read pg_control_*() (some managed services).
    system_identifier: int | None
    timeline: int | None


def _cluster_identity(using: str) -> ClusterIdentity:
    with connections[using].cursor() as cursor:
        cursor.execute("SELECT system_identifier, timeline FROM zeromemory_cluster_identity()")
        system_identifier, timeline = cursor.fetchone()
    return ClusterIdentity(system_identifier, timeline)


def feed_epoch_advance(*, reason: str, using: str = "default") -> FeedEpoch:
    """Move the feed to a new epoch, higher than every one before: events written from now on
    sort after every event already stored, and every cursor given out so far answers
    feed_epoch_changed. The new epoch is the time in milliseconds (or one more than the last,
    if the clock is behind it), so two restores of one backup never reuse an epoch a reader saw.

    Writers that are mid-transaction finish first (SHARE lock on the feed, which every insert's
    ROW EXCLUSIVE conflicts with): none of them can commit an event of the old epoch after a
    reader has moved to the new one."""
    with transaction.atomic(using=using):
        with connections[using].cursor() as cursor:
            cursor.execute("LOCK TABLE memories_feedevent IN SHARE MODE")
        identity = _cluster_identity(using)
        now = timezone.now()
        current = FeedEpoch.objects.using(using).select_for_update().filter(pk=1).first()
        epoch = int(now.timestamp() * 1000)
        if current is None:
            row = FeedEpoch(pk=1, epoch=epoch, changed_at=now, reason=reason[:200])
        else:
            row = current
            row.epoch = max(epoch, current.epoch + 1)
            row.changed_at = now
            row.reason = reason[:200]
        row.system_identifier = identity.system_identifier
        row.timeline = identity.timeline
        row.save(using=using)
    logger.warning("The event feed moved to epoch %s: %s", row.epoch, reason)
    return row


def feed_epoch_check(*, using: str = "default") -> FeedEpoch:
    """Notice, on its own, a database that now lives in another PostgreSQL cluster (restored from
    a dump, or copied by other means): its transaction ids restart there, so the feed moves to a
    new epoch. A promoted replica (a failover) is the same cluster on a new timeline: the ids
    carry on, and only the timeline is recorded. A point-in-time recovery also keeps the cluster's
    identity and cannot be told from a failover here: after one, run ``feed_epoch --new``
    (docs/operations.md)."""
    identity = _cluster_identity(using)
    with transaction.atomic(using=using):
        current = FeedEpoch.objects.using(using).select_for_update().filter(pk=1).first()
        if current is None:
            # Only a flushed test database (or a hand-emptied table) lacks the row: epoch 0, as
            # the events already there were written under.
            row = FeedEpoch(
                pk=1,
                epoch=0,
                system_identifier=identity.system_identifier,
                timeline=identity.timeline,
                changed_at=timezone.now(),
                reason="created",
            )
            row.save(using=using)
            return row
        moved = (
            current.system_identifier is not None
            and identity.system_identifier is not None
            and current.system_identifier != identity.system_identifier
        )
        if not moved:
            if (current.system_identifier, current.timeline) != (identity.system_identifier, identity.timeline):
                if current.timeline is not None and identity.timeline != current.timeline:
                    logger.warning(
                        "The database is on timeline %s (was %s): a failover or a point-in-time recovery. "
                        "After a point-in-time recovery run `manage.py feed_epoch --new` (docs/operations.md).",
                        identity.timeline,
                        current.timeline,
                    )
                updated = (
                    FeedEpoch.objects.using(using)
                    .filter(pk=1, epoch=current.epoch)
                    .update(system_identifier=identity.system_identifier, timeline=identity.timeline)
                )
                if updated != 1:  # the row is locked: another count is a broken invariant, not a race
                    raise RuntimeError("the feed epoch row changed under its lock")
                current.refresh_from_db(using=using)
            return current
    return feed_epoch_advance(
        reason=f"the database is in another PostgreSQL cluster (system identifier "
        f"{identity.system_identifier}, was {current.system_identifier})",
        using=using,
    )
