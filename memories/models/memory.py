"""The domain's tables. Writes go through memories.services, reads through memories.selectors.

Lifecycle invariants of SPEC §8 are held by the database itself (CHECK constraints here,
append-only triggers in the migrations), so no code path, however careless, can store a
live memory with a successor or rewrite an event.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.core.validators import URLValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.expressions import RawSQL
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils import timezone
from guardian.models import GroupObjectPermissionBase, UserObjectPermissionBase
from pgvector.django import HnswIndex, VectorField

from memories.choices import (
    AccountAction,
    DeliveryState,
    EventAction,
    FeedEventType,
    Kind,
    LinkOrigin,
    LinkType,
    LoopStatus,
    Provenance,
    Role,
    SecretPolicy,
    State,
    Visibility,
)
from memories.ids import ID_LENGTH, new_link_id, new_memory_id

MAX_CONTENT_LENGTH = 8000
MAX_METADATA_BYTES = 16384
MAX_SESSION_LENGTH = 200
# The memory object as the API, MCP and the admin show it (SPEC §3), in that order.
MEMORY_FIELDS = (
    "id",
    "content",
    "kind",
    "owner",
    "project",
    "visibility",
    "provenance",
    "session",
    "metadata",
    "state",
    "superseded_by",
    "invalidated_at",
    "loop_status",
    "closed_by",
    "closed_at",
    "valid_from",
    "valid_until",
    "purged_at",
    "created_at",
    "updated_at",
)
# What a purged memory's content becomes (memories.services.purge); its embedding becomes
# PURGED_VECTOR, a constant unit vector (a zero vector has no cosine distance).
TOMBSTONE = "[purged]"


def in_choices(field: str, choices: type[models.TextChoices]) -> Q:
    """A CHECK condition: ``field`` holds one of ``choices`` (a choice field's own validation
    runs only in forms and serializers; the database holds every other path to it)."""
    return Q(**{f"{field}__in": choices.values})


class Project(models.Model):
    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # The secret guard's policy for writes into the project (personal memories: redact).
    secret_policy = models.CharField(max_length=8, choices=SecretPolicy.choices, default=SecretPolicy.REDACT)
    # Provisional writes (background captures) into the project land pending, and count only
    # once a maintainer approves them (memories.services.moderation).
    review_provisional = models.BooleanField(default=False)
    members: models.ManyToManyField[User, Membership] = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="projects"
    )

    class Meta:
        ordering = ["slug"]
        constraints = [
            models.CheckConstraint(
                condition=in_choices("secret_policy", SecretPolicy), name="project_secret_policy_valid"
            )
        ]

    def __str__(self) -> str:
        return self.slug


class Membership(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["project", "user"], name="membership_unique"),
            models.CheckConstraint(condition=in_choices("role", Role), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.project} ({self.role})"


@dataclass(frozen=True)
class TokenScope:
    """What the token a request came with narrows its user to (set on the request's user by
    ``memories.platform.tokens``; read by ``memories.visibility``)."""

    project_ids: frozenset[int] | None  # None: not narrowed to projects
    read_only: bool


def token_scope(user: object) -> TokenScope | None:
    """The scope of the token ``user`` came with, or None (a full token, a session, no one)."""
    scope = getattr(user, "token_scope", None)
    return scope if isinstance(scope, TokenScope) else None


class Credential(models.Model):
    """An API token. Only its SHA-256 is stored; ``prefix`` identifies it to people."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="credentials")
    label = models.CharField(max_length=100, blank=True)
    prefix = models.CharField(max_length=16, db_index=True)
    token_hash = models.CharField(max_length=64, unique=True)
    provenance = models.CharField(max_length=16, choices=Provenance.choices, default=Provenance.AUTHORITATIVE)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The token's scope; it only ever narrows what its user may see and do (memories.visibility).
    # Projects: none = all the user's memories; some = only memories of those projects (and
    # writes only into them). Read-only: no write of any kind. Expired: refused like a revoked one.
    projects = models.ManyToManyField(Project, blank=True, related_name="+")
    read_only = models.BooleanField(default=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    # Read-your-writes with read replicas (memories.platform.replicas): the primary's WAL position
    # (bytes) after the user's last write. Read with the token on every request, so routing a read
    # costs no query of its own; written on all the user's tokens, only when replicas are set.
    read_after_lsn = models.BigIntegerField(null=True, blank=True, editable=False)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=in_choices("provenance", Provenance), name="credential_provenance_valid"),
            models.UniqueConstraint(
                fields=["user", "label"],
                condition=Q(revoked_at__isnull=True) & ~Q(label=""),
                name="credential_active_label_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.label or 'unlabelled'}, {self.user})"

    @property
    def default_session(self) -> str:
        """The session a write without ``session`` belongs to (SPEC R-D1)."""
        return f"credential:{self.pk}"


class Memory(models.Model):
    id = models.CharField(primary_key=True, max_length=ID_LENGTH, default=new_memory_id, editable=False)
    content = models.TextField()
    # SHA-256 of the content normalised for the dedup cascade (case, whitespace, punctuation).
    content_fingerprint = models.CharField(max_length=64, editable=False)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.FACT)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="memories")
    project = models.ForeignKey(Project, on_delete=models.PROTECT, null=True, blank=True, related_name="memories")
    visibility = models.CharField(max_length=16, choices=Visibility.choices, default=Visibility.PROJECT)
    provenance = models.CharField(max_length=16, choices=Provenance.choices, default=Provenance.AUTHORITATIVE)
    credential = models.ForeignKey(
        Credential, on_delete=models.SET_NULL, null=True, blank=True, related_name="memories"
    )
    # null = no session given (distinct from any real session id, which is never empty).
    session = models.CharField(max_length=MAX_SESSION_LENGTH, null=True, blank=True)  # noqa: DJ001
    # The session dedup compares: ``session`` when given, else the credential's default one.
    session_key = models.CharField(max_length=MAX_SESSION_LENGTH + 20, blank=True, default="")
    metadata = models.JSONField(default=dict, blank=True)
    embedding = VectorField(dimensions=settings.EMBEDDING_DIMENSIONS)
    # Which model produced ``embedding`` (reembed switches models in resumable batches).
    embedding_model = models.CharField(max_length=300, blank=True, default="")
    search_vector = models.GeneratedField(
        expression=SearchVector("content", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    state = models.CharField(max_length=16, choices=State.choices, default=State.LIVE)
    superseded_by = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="predecessors"
    )
    invalidated_at = models.DateTimeField(null=True, blank=True)
    # null = not a loop (only tasks and open questions are).
    loop_status = models.CharField(max_length=8, choices=LoopStatus.choices, null=True, blank=True)  # noqa: DJ001
    closed_by = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="closed_loops")
    closed_at = models.DateTimeField(null=True, blank=True)
    # Valid time: when the statement holds in the world, as its writer says (null: open-ended).
    # Apart from the lifecycle: a memory whose validity has ended stays live and readable;
    # recall, context and similar_existing leave it out unless asked (docs/api.md).
    valid_from = models.DateTimeField(null=True, blank=True)
    valid_until = models.DateTimeField(null=True, blank=True)
    # Set once, by the audited purge (the one deliberate exception to forward-only): the content,
    # metadata and vectors were erased; ids, links and events stay. Never live again.
    purged_at = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "memories"
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="memory_feed_idx"),
            # Cover the exact vector scans: similar_existing (the owner's live memories) and
            # recall within a project (the project's memories plus the caller's personal ones).
            # Each reads its rows from one index alone (an index-only scan), contiguously,
            # without visiting the table: at 100,000 memories a project's rows sat on 7,000
            # different table pages (bench/suite.py).
            # valid_until rides along: the scans leave out memories whose validity has ended.
            models.Index(
                fields=["owner", "state", "project"],
                include=["id", "visibility", "kind", "valid_until", "embedding"],
                name="memory_owner_scan_idx",
            ),
            models.Index(
                fields=["project", "state"],
                include=["id", "owner", "visibility", "kind", "valid_until", "embedding"],
                name="memory_project_scan_idx",
            ),
            # A write's text among the owner's live (R-D1) and superseded (R-D3) memories.
            models.Index(
                fields=["owner", "content_fingerprint"],
                condition=Q(state__in=[State.LIVE, State.SUPERSEDED]),
                name="memory_fingerprint_idx",
            ),
            GinIndex(fields=["search_vector"], name="memory_search_idx"),
            # The lexical side of similar_existing and hygiene's candidates (memories.ranking):
            # one owner's live rows holding a rare word, without intersecting bitmaps of the
            # owner's and the word's rows (btree_gin indexes the owner beside the lexemes).
            GinIndex(
                fields=["owner", "search_vector"],
                condition=Q(state=State.LIVE),
                name="memory_owner_search_idx",
            ),
            # recall's vector side (memories.recall.vector_ranking), with iterative scans.
            # ef_construction 128, not pgvector's 64: at 100,000 memories the walk under the
            # visibility filter found 0.977 of the exact top 10 with 64 (some questions none of
            # it) and 0.999 with 128, for the same walk time and ~0.5 ms more per insert
            # (docs/write-path.md, "The HNSW graph's build quality").
            HnswIndex(
                fields=["embedding"],
                name="memory_embedding_hnsw_idx",
                m=16,
                ef_construction=128,
                opclasses=["vector_cosine_ops"],
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=in_choices("kind", Kind), name="memory_kind_valid"),
            models.CheckConstraint(condition=in_choices("visibility", Visibility), name="memory_visibility_valid"),
            models.CheckConstraint(condition=in_choices("provenance", Provenance), name="memory_provenance_valid"),
            models.CheckConstraint(condition=in_choices("state", State), name="memory_state_valid"),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("content"), MAX_CONTENT_LENGTH) & Q(content__regex=r"\S"),
                name="memory_content_length",
            ),
            models.CheckConstraint(condition=Q(session__isnull=True) | ~Q(session=""), name="memory_session_not_empty"),
            # Personal memories (no project) are always private.
            models.CheckConstraint(
                condition=Q(project__isnull=False) | Q(visibility=Visibility.PRIVATE),
                name="memory_personal_is_private",
            ),
            # The lifecycle: live and pending have no successor and no invalidation; superseded has both;
            # forgotten has an invalidation and no successor.
            models.CheckConstraint(
                condition=(
                    Q(state__in=[State.LIVE, State.PENDING], superseded_by__isnull=True, invalidated_at__isnull=True)
                    | Q(state=State.SUPERSEDED, superseded_by__isnull=False, invalidated_at__isnull=False)
                    | Q(state=State.FORGOTTEN, superseded_by__isnull=True, invalidated_at__isnull=False)
                ),
                name="memory_lifecycle_consistent",
            ),
            models.CheckConstraint(condition=~Q(superseded_by=F("id")), name="memory_not_own_successor"),
            models.CheckConstraint(
                condition=Q(purged_at__isnull=True)
                | (Q(state__in=[State.SUPERSEDED, State.FORGOTTEN]) & Q(content=TOMBSTONE)),
                name="memory_purged_is_tombstone",
            ),
            models.CheckConstraint(
                condition=Q(valid_from__isnull=True) | Q(valid_until__isnull=True) | Q(valid_from__lt=F("valid_until")),
                name="memory_valid_time_ordered",
            ),
            # Open loops: task and open-question carry a loop status, other kinds none.
            models.CheckConstraint(
                condition=(
                    Q(kind__in=[Kind.TASK, Kind.OPEN_QUESTION], loop_status__isnull=False)
                    | (~Q(kind__in=[Kind.TASK, Kind.OPEN_QUESTION]) & Q(loop_status__isnull=True))
                ),
                name="memory_loop_kind",
            ),
            models.CheckConstraint(
                condition=(
                    Q(loop_status__isnull=True, closed_by__isnull=True, closed_at__isnull=True)
                    | Q(loop_status=LoopStatus.OPEN, closed_by__isnull=True, closed_at__isnull=True)
                    | Q(loop_status=LoopStatus.CLOSED, closed_at__isnull=False)
                ),
                name="memory_loop_closed_fields",
            ),
        ]

    def __str__(self) -> str:
        return self.id


class MemorySentence(models.Model):
    """One sentence's vector of a memory of several sentences (memories.text.sentences).

    The model reads a text as one vector of its first 256 word pieces; a long, chatty statement
    then resembles other chatty statements more than the one fact it shares with its
    predecessor. memories.ranking compares the sentences one by one as well. A memory of one
    sentence has no rows here: its own ``embedding`` is its sentence's vector. Written with the
    memory (same transaction) and by reembed; never changed otherwise.
    """

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="sentence_vectors")
    position = models.PositiveSmallIntegerField()
    embedding = VectorField(dimensions=settings.EMBEDDING_DIMENSIONS)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["memory", "position"], name="memory_sentence_unique_position"),
        ]
        indexes = [
            # The sentence side's nearest sentences (memories.ranking.sentence_neighbours): an
            # exact scan of every sentence of the caller's memories, once per sentence of the
            # text, cost 254 ms per recall of a chat turn among 2,170 (issue 31). pgvector's
            # default build (ef_construction 64): a sentence row costs less to insert, and the
            # nearest three memories of a sentence are found as the exact scan finds them in
            # 0.99 of cases (bench/longtext_quality.py).
            HnswIndex(
                fields=["embedding"],
                name="memory_sentence_hnsw_idx",
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.memory_id} sentence {self.position}"


class Link(models.Model):
    """A typed directed edge ``src → dst``. It records; it never retires."""

    id = models.CharField(primary_key=True, max_length=ID_LENGTH, default=new_link_id, editable=False)
    src = models.ForeignKey(Memory, on_delete=models.PROTECT, related_name="links_out")
    dst = models.ForeignKey(Memory, on_delete=models.PROTECT, related_name="links_in")
    type = models.CharField(max_length=16, choices=LinkType.choices)
    origin = models.CharField(max_length=16, choices=LinkOrigin.choices)
    # A supersede undone by restore stays in history, marked reverted.
    reverted = models.BooleanField(default=False)
    reverted_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        indexes = [models.Index(fields=["dst", "type"], name="link_dst_type_idx")]
        constraints = [
            models.CheckConstraint(condition=in_choices("type", LinkType), name="link_type_valid"),
            models.CheckConstraint(condition=in_choices("origin", LinkOrigin), name="link_origin_valid"),
            models.CheckConstraint(condition=~Q(src=F("dst")), name="link_not_self"),
            models.CheckConstraint(
                condition=Q(reverted=False, reverted_at__isnull=True) | Q(reverted=True, reverted_at__isnull=False),
                name="link_reverted_consistent",
            ),
            models.UniqueConstraint(
                fields=["src", "dst", "type"], condition=Q(reverted=False), name="link_unique_active"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.src_id} -{self.type}-> {self.dst_id}"


class MemoryEvent(models.Model):
    """One entry of the append-only lifecycle log; a trigger refuses UPDATE and DELETE."""

    memory = models.ForeignKey(Memory, on_delete=models.PROTECT, related_name="events")
    action = models.CharField(max_length=16, choices=EventAction.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    credential = models.ForeignKey(Credential, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reason = models.TextField(blank=True, default="")
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["memory", "created_at"], name="event_memory_idx")]
        constraints = [models.CheckConstraint(condition=in_choices("action", EventAction), name="event_action_valid")]

    def __str__(self) -> str:
        return f"{self.action} {self.memory_id} at {self.created_at:%Y-%m-%d %H:%M:%S}"


class AccountEvent(models.Model):
    """One entry of the append-only audit log of projects, memberships and tokens (a trigger
    refuses UPDATE and DELETE). What was changed is kept by name, so the entry outlives it."""

    action = models.CharField(max_length=24, choices=AccountAction.choices)
    # None: an operator at the shell; ``via`` says which command.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    via = models.CharField(max_length=64)
    project_slug = models.CharField(max_length=64, blank=True)
    username = models.CharField(max_length=150, blank=True)
    credential_prefix = models.CharField(max_length=16, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=in_choices("action", AccountAction), name="account_event_action_valid")
        ]

    def __str__(self) -> str:
        return f"{self.action} at {self.created_at:%Y-%m-%d %H:%M:%S}"


class MemoryUserObjectPermission(UserObjectPermissionBase):
    """Per-object grants to a user (guardian's direct foreign-key model)."""

    content_object = models.ForeignKey(Memory, on_delete=models.CASCADE)


class MemoryGroupObjectPermission(GroupObjectPermissionBase):
    """Per-object grants to a group (guardian's direct foreign-key model)."""

    content_object = models.ForeignKey(Memory, on_delete=models.CASCADE)


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


class FeedEvent(models.Model):
    """One entry of the event feed and the webhooks' outbox source (append-only, a trigger
    refuses UPDATE and DELETE). Rows are written by database triggers in the transaction of the
    change they announce (migration 0016 for the memories' lifecycle log, review's for the
    conflict queue), so no write path can change something without its event, or the reverse.

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
    # The memory the event is about; for a conflict, the newer of the pair.
    memory = models.ForeignKey(Memory, on_delete=models.PROTECT, related_name="+")
    # A conflict's older memory.
    other_memory = models.ForeignKey(Memory, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    project = models.ForeignKey(Project, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    # The lifecycle entry it copies, or the conflict it is about (review's table: no foreign
    # key, memories knows nothing of review).
    source_event = models.OneToOneField(
        MemoryEvent, on_delete=models.PROTECT, null=True, blank=True, related_name="feed_event"
    )
    conflict_id = models.BigIntegerField(null=True, blank=True)
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
