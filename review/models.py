"""Judgments and conflicts of the hygiene pipeline (SPEC §6, §7)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from memories.models import Memory, in_choices


class Relation(models.TextChoices):
    DUPLICATE = "duplicate"
    SUPERSEDES = "supersedes"
    COMPLEMENTARY = "complementary"
    CONTRADICTS = "contradicts"
    UNRELATED = "unrelated"


RETIRING_RELATIONS = frozenset({Relation.DUPLICATE, Relation.SUPERSEDES})
QUEUED_RELATIONS = frozenset({Relation.DUPLICATE, Relation.SUPERSEDES, Relation.CONTRADICTS})


class JudgmentOutcome(models.TextChoices):
    AUTO_RESOLVED = "auto_resolved"
    QUEUED = "queued"
    NO_ACTION = "no_action"


class Judgment(models.Model):
    """One verdict of the judge on a pair (older, newer). Each pair is judged once."""

    older = models.ForeignKey(Memory, on_delete=models.PROTECT, related_name="+")
    newer = models.ForeignKey(Memory, on_delete=models.PROTECT, related_name="+")
    relation = models.CharField(max_length=16, choices=Relation.choices)
    confidence = models.FloatField()
    rationale = models.TextField(blank=True)
    judge = models.CharField(max_length=100)
    outcome = models.CharField(max_length=16, choices=JudgmentOutcome.choices)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["older", "newer"], name="judgment_pair_unique"),
            models.CheckConstraint(condition=~Q(older=F("newer")), name="judgment_distinct_pair"),
            models.CheckConstraint(condition=Q(confidence__gte=0, confidence__lte=1), name="judgment_confidence_range"),
            models.CheckConstraint(condition=in_choices("relation", Relation), name="judgment_relation_valid"),
            models.CheckConstraint(condition=in_choices("outcome", JudgmentOutcome), name="judgment_outcome_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.older_id} / {self.newer_id}: {self.relation} ({self.confidence:.2f})"


class ConflictStatus(models.TextChoices):
    PENDING = "pending"
    RESOLVED = "resolved"
    DISMISSED = "dismissed"


class Resolution(models.TextChoices):
    NEWER_SUPERSEDES = "newer_supersedes"
    OLDER_STANDS = "older_stands"
    KEEP_BOTH = "keep_both"
    DISMISS = "dismiss"
    DECLARED = "declared"  # a writer declared the supersede itself
    RETIRED = "retired"  # one side was retired by other means meanwhile
    # A moderator settled the conflict's whole group (review.services.conflict_group_resolve):
    # one value stands and the group's other live values were superseded by it. A group's
    # "keep all" and "dismiss" record keep_both and dismiss on each of its conflicts.
    GROUP_STANDS = "group_stands"


# What a moderator may choose (the API, the admin and the service alike); the other resolutions
# are recorded by the system itself.
MODERATOR_ACTIONS = (Resolution.NEWER_SUPERSEDES, Resolution.OLDER_STANDS, Resolution.KEEP_BOTH, Resolution.DISMISS)


class GroupAction(models.TextChoices):
    """A moderator's one decision on a group of conflicts (review.services.conflict_group_resolve)."""

    STANDS = "stands"  # one value stands; the group's other live values are superseded by it
    KEEP_ALL = "keep_all"
    DISMISS = "dismiss"


GROUP_ACTIONS = tuple(GroupAction.values)


class Conflict(models.Model):
    """A pair the judge could not settle confidently; waits for a person."""

    older = models.ForeignKey(Memory, on_delete=models.PROTECT, related_name="+")
    newer = models.ForeignKey(Memory, on_delete=models.PROTECT, related_name="+")
    judgment = models.OneToOneField(Judgment, on_delete=models.PROTECT, null=True, blank=True, related_name="conflict")
    relation = models.CharField(max_length=16, choices=Relation.choices)
    confidence = models.FloatField()
    rationale = models.TextField(blank=True)
    status = models.CharField(max_length=16, choices=ConflictStatus.choices, default=ConflictStatus.PENDING)
    resolution = models.CharField(max_length=16, choices=Resolution.choices, blank=True, default="")
    # Both memories came from one credential: the writer probably knew (see the throughput page).
    same_credential = models.BooleanField(default=False)
    # A fork (SPEC R-S12): the version both memories replaced, written by writers who did not
    # see each other. Opened by the write itself, with no judge.
    stale_version = models.ForeignKey(Memory, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    # The subject and attribute both memories state, as the structure reads them
    # (review.judges.slots.slot_key); "" when it cannot single one out, and for forks. Pending
    # conflicts of one owner and scope with the same slot are one decision (a group).
    slot = models.CharField(max_length=200, blank=True, default="")
    opened_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        indexes = [
            models.Index(fields=["status", "opened_at"], name="conflict_status_idx"),
            # The pending conflicts that dispute one slot (a group's members beyond shared memories).
            models.Index(fields=["status", "slot"], condition=~Q(slot=""), name="conflict_status_slot_idx"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["older", "newer"], condition=Q(status="pending"), name="conflict_one_pending_per_pair"
            ),
            models.CheckConstraint(
                condition=Q(status="pending", resolved_at__isnull=True, resolution="")
                | (~Q(status="pending") & Q(resolved_at__isnull=False) & ~Q(resolution="")),
                name="conflict_resolution_consistent",
            ),
            models.CheckConstraint(condition=in_choices("relation", Relation), name="conflict_relation_valid"),
            models.CheckConstraint(condition=in_choices("status", ConflictStatus), name="conflict_status_valid"),
            models.CheckConstraint(
                condition=Q(resolution="") | in_choices("resolution", Resolution), name="conflict_resolution_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"conflict {self.pk}: {self.older_id} / {self.newer_id} ({self.status})"
