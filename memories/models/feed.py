"""The event feed (FeedEvent, its epoch) and the webhooks that deliver it: endpoints, deliveries
and their attempts."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.validators import URLValidator
from django.db import models
from django.db.models import Q
from django.db.models.expressions import RawSQL
from django.utils import timezone

from memories.choices import (
    DeliveryState,
    FeedEventType,
)
from memories.models.accounts import Project
from memories.models.checks import in_choices
from memories.models.memory import Memory, MemoryEvent


class FeedEvent(models.Model):
    """One entry of the event feed and the webhooks' outbox source (append-only, a trigger
    refuses UPDATE and DELETE). Rows are written by database triggers in the transaction of the
    change they announce (migration 0016 for the memories' lifecycle log; another app's trigger
    through ``zeromemory_feed_append()``, migration 0033), so no write path can change
    something without its event, or the reverse.

    ``txid`` is the writing transaction's id. The feed reads in (txid, id) order and only rows of
    transactions older than every one still running: ids are handed out before commit, so a
    reader going by id alone could pass an id whose transaction commits a moment later and never
    see it (memories.selectors.feed_events).

    ``epoch`` is the feed's epoch when the row was written (FeedEpoch). Transaction ids count
    within one PostgreSQL cluster's history only: a backup restored into another cluster, or a
    point-in-time recovery, starts counting lower again. The feed reads in (epoch, txid, id)
    order, and a restore moves to a higher epoch, so what is written afterwards sorts after
    what was restored.
    """

    type = models.CharField(max_length=32, choices=FeedEventType.choices)
    # The memory the event is about; for an event about a pair, the one its app names first.
    memory = models.ForeignKey(Memory, on_delete=models.PROTECT, related_name="+")
    # The pair's second memory, for an event about two.
    other_memory = models.ForeignKey(Memory, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    project = models.ForeignKey(Project, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    # The lifecycle entry it copies (the memories' own events).
    source_event = models.OneToOneField(
        MemoryEvent, on_delete=models.PROTECT, null=True, blank=True, related_name="feed_event"
    )
    # For an event another app appends (zeromemory_feed_append(), migration 0033), the id of
    # what it is about in that app's own table: no foreign key, memories knows nothing of the
    # apps built on it. Answered under the key the app registers (memories.hooks.feed_subject_key).
    subject_id = models.BigIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    txid = models.BigIntegerField(db_default=RawSQL("txid_current()", ()), editable=False)
    epoch = models.BigIntegerField(db_default=RawSQL("zeromemory_feed_epoch()", ()), editable=False)

    class Meta:
        indexes = [
            models.Index(fields=["epoch", "txid", "id"], name="feed_event_epoch_order_idx"),
            models.Index(fields=["project", "epoch", "txid", "id"], name="feed_event_epoch_project_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=in_choices("type", FeedEventType), name="feed_event_type_valid")
        ]

    def __str__(self) -> str:
        return f"evt_{self.pk} {self.type}"

    @property
    def public_id(self) -> str:
        return f"evt_{self.pk}"


class FeedEpoch(models.Model):
    """The event feed's epoch: one row, read by every new FeedEvent (the column's default calls
    ``zeromemory_feed_epoch()``, migration 0029) and by every feed page, which refuses a cursor
    of another epoch (410 feed_epoch_changed). Changed by ``./zm restore`` and by the
    ``feed_epoch --new`` command (memories.services.feed_epoch), and found changed on its own
    when the database turns up in another cluster (``system_identifier``). The cluster's
    identity and timeline are recorded with it: a promoted replica keeps the identity (same
    history, same transaction ids) and only starts a new timeline, so a failover keeps the
    epoch and every reader's cursor."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    epoch = models.BigIntegerField()
    system_identifier = models.BigIntegerField(null=True, blank=True)
    timeline = models.IntegerField(null=True, blank=True)
    changed_at = models.DateTimeField()
    reason = models.CharField(max_length=200)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(id=1), name="feed_epoch_single_row")]

    def __str__(self) -> str:
        return f"feed epoch {self.epoch}"


def new_webhook_secret() -> str:
    return f"whsec_{secrets.token_urlsafe(32)}"


class WebhookEndpoint(models.Model):
    """Where a project's events are sent (memories.webhooks). Managed in the admin by the
    project's maintainers; every delivery is signed with ``secret`` (docs/api.md)."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(
        max_length=500,
        validators=[URLValidator(schemes=["http", "https"])],
        help_text="Where to POST the events (http or https).",
    )
    description = models.CharField(max_length=200, blank=True)
    # Empty: every type.
    events = ArrayField(
        models.CharField(max_length=32, choices=FeedEventType.choices),
        blank=True,
        default=list,
        help_text="The event types to send; none chosen sends them all.",
    )
    secret = models.CharField(max_length=100, default=new_webhook_secret, editable=False)
    active = models.BooleanField(default=True, help_text="Inactive endpoints get no new deliveries.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["project__slug", "url"]
        indexes = [models.Index(fields=["project"], condition=Q(active=True), name="webhook_active_idx")]

    def __str__(self) -> str:
        return f"{self.project} → {self.url}"


class WebhookDelivery(models.Model):
    """One event owed to one endpoint: the outbox row, written with the event (a trigger), and
    its delivery's state. At least once: a receiver deduplicates by the event's id."""

    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(FeedEvent, on_delete=models.PROTECT, related_name="deliveries")
    state = models.CharField(max_length=16, choices=DeliveryState.choices, default=DeliveryState.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    # When a sender may next take it: due now, after a backoff, or after a claim's lease.
    next_attempt_at = models.DateTimeField(default=timezone.now)
    # Set while a sender holds it (the end of its claim's lease), cleared when the attempt is
    # recorded: what the claim counts of an endpoint's deliveries in flight, against its cap.
    claimed_until = models.DateTimeField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name_plural = "webhook deliveries"
        indexes = [
            models.Index(fields=["next_attempt_at", "id"], condition=Q(state="pending"), name="delivery_due_idx"),
            models.Index(
                fields=["endpoint", "claimed_until"],
                condition=Q(state="pending", claimed_until__isnull=False),
                name="delivery_in_flight_idx",
            ),
            # One endpoint's due deliveries, earliest first (the claim fills each endpoint's room).
            models.Index(
                fields=["endpoint", "next_attempt_at", "id"],
                condition=Q(state="pending"),
                name="delivery_endpoint_due_idx",
            ),
            # Retention (memories.platform.retention): the oldest delivered and dead ones first,
            # without scanning the table.
            models.Index(fields=["delivered_at"], condition=Q(state="delivered"), name="delivery_delivered_idx"),
            models.Index(fields=["last_attempt_at"], condition=Q(state="dead"), name="delivery_dead_idx"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "event"], name="delivery_once_per_endpoint"),
            models.CheckConstraint(condition=in_choices("state", DeliveryState), name="delivery_state_valid"),
        ]

    def __str__(self) -> str:
        return f"evt_{self.event_id} → {self.endpoint.url} ({self.state})"


class WebhookAttempt(models.Model):
    """One try at a delivery: the log the admin shows."""

    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log")
    number = models.PositiveIntegerField()
    at = models.DateTimeField(default=timezone.now)
    status = models.PositiveSmallIntegerField(null=True, blank=True)  # null: no HTTP answer
    error = models.TextField(blank=True, default="")
    milliseconds = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["delivery", "number"]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.delivery_id}: {self.status or self.error[:40]}"
