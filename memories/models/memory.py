"""The memories themselves: each version (Memory), its sentence vectors, its links, its
lifecycle log (MemoryEvent) and the grants that share it."""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils import timezone
from guardian.models import GroupObjectPermissionBase, UserObjectPermissionBase
from pgvector.django import HnswIndex, VectorField

from memories.choices import (
    EventAction,
    Kind,
    LinkOrigin,
    LinkType,
    LoopStatus,
    Provenance,
    State,
    Visibility,
)
from memories.ids import ID_LENGTH, new_link_id, new_memory_id
from memories.models.accounts import Credential, Project
from memories.models.checks import in_choices

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
    # Retired while pending review (rejected, withdrawn by its writer, replaced by a moderator's
    # version): a restore sends it back to review, never straight into what counts. Part of the
    # lifecycle on the row, set by the retirement and cleared by the restore (services.lifecycle,
    # services.retire), so the restore reads the memory, not an event's data.
    retired_while_pending = models.BooleanField(default=False, db_default=False)
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
            # The lexical side of similar_existing and hygiene's candidates (memories.search):
            # one owner's live rows holding a rare word, without intersecting bitmaps of the
            # owner's and the word's rows (btree_gin indexes the owner beside the lexemes).
            GinIndex(
                fields=["owner", "search_vector"],
                condition=Q(state=State.LIVE),
                name="memory_owner_search_idx",
            ),
            # The metadata filter (JSON containment, @>) of the feed and recall: a LangGraph
            # store's get is one key among all of a scope's memories, a scan of every visible row
            # without it (23 ms at 10,000 memories; docs/clients/langgraph.md). jsonb_path_ops
            # indexes only containment, at a third of the default opclass's size. Partial: a
            # memory without metadata (most) is no entry to write, and costs a write nothing
            # (bench/writepath.py, docs/write-path.md); selectors.metadata_contains says so.
            GinIndex(
                fields=["metadata"],
                opclasses=["jsonb_path_ops"],
                condition=~Q(metadata={}),
                name="memory_metadata_idx",
            ),
            # recall's vector side (memories.search, vector_ranking), with iterative scans.
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
            models.CheckConstraint(
                condition=Q(retired_while_pending=False) | Q(state__in=[State.SUPERSEDED, State.FORGOTTEN]),
                name="memory_retired_while_pending_is_retired",
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
    predecessor. memories.search compares the sentences one by one as well. A memory of one
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
            # The sentence side's nearest sentences (memories.search, sentence_neighbours): an
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


class MemoryUserObjectPermission(UserObjectPermissionBase):
    """Per-object grants to a user (guardian's direct foreign-key model)."""

    content_object = models.ForeignKey(Memory, on_delete=models.CASCADE)


class MemoryGroupObjectPermission(GroupObjectPermissionBase):
    """Per-object grants to a group (guardian's direct foreign-key model)."""

    content_object = models.ForeignKey(Memory, on_delete=models.CASCADE)
