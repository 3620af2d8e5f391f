"""What keeps the service running: idempotency records, rate-limit buckets, worker heartbeats and
maintenance runs."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from memories.models.accounts import Credential


class IdempotencyRecord(models.Model):
    """What a remember with an ``Idempotency-Key`` answered, so a retry gets the same answer."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        COMPLETED = "completed"

    credential = models.ForeignKey(Credential, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["credential", "key"], name="idempotency_key_unique")]
        indexes = [models.Index(fields=["created_at"], name="idempotency_created_idx")]

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"


class RateLimitBucket(models.Model):
    """One rate-limited key's state for the generic cell rate algorithm (memories.platform.ratelimit).

    The whole state is one timestamp, the *theoretical arrival time*: a request is allowed while
    it would not push that time more than a period into the future. Kept in PostgreSQL so every
    server process and machine shares it; the table is UNLOGGED (migration 0009) because losing
    it in a crash only forgives some requests.
    """

    key = models.CharField(max_length=200, primary_key=True)
    tat = models.DateTimeField()

    def __str__(self) -> str:
        return self.key


class WorkerHeartbeat(models.Model):
    """A task worker's last sign of life, in the database's clock (manage.py task_worker). A
    task RUNNING under a worker whose heartbeat is older than the lease goes back to the queue."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"worker {self.worker_id} seen at {self.seen_at}"


class MaintenanceRun(models.Model):
    """When a periodic chore shared by every worker last ran (``retention``: the pruning of
    memories.platform.retention). Whoever moves ``ran_at`` forward, guarded by its age, runs it:
    at most once per interval across all workers."""

    name = models.CharField(max_length=32, primary_key=True)
    ran_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} ran at {self.ran_at}"
