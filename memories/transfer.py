"""Export and import of the store as JSON Lines (manage.py export_memories / import_memories).

One object per line, with "type" memory, link or event. Memories carry their owner by
username and project by slug, so a file moves between deployments. Import is idempotent (what
exists is skipped), validates every line first and reports the bad ones by number, and writes in
atomic batches: memories are inserted live (with an ``imported`` event when the file brings no
creation event for one), then moved to their recorded state (the only transitions the
forward-only store allows), then links, then events.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils.dateparse import parse_datetime

from memories import secret_guard
from memories.choices import (
    CREATION_ACTIONS,
    LOOP_KINDS,
    AccountAction,
    EventAction,
    Kind,
    LinkOrigin,
    LinkType,
    LoopStatus,
    Provenance,
    SecretPolicy,
    State,
    Visibility,
)
from memories.embedding import embed_sentences, get_embedder
from memories.ids import LINK_ID_RE, MEMORY_ID_RE
from memories.models import (
    MAX_CONTENT_LENGTH,
    TOMBSTONE,
    AccountEvent,
    Link,
    Memory,
    MemoryEvent,
    MemorySentence,
    Project,
)
from memories.text import content_fingerprint

BATCH = 500
IMPORTED_DATA = {"source": "import_memories"}
# Set on an imported memory's row when the secret guard redacted it (what it found).
REDACTED_KEY = "_redacted"


def _time(value: datetime | None) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


def export_lines(memories: Iterable[Memory], *, embeddings: bool = False) -> Iterator[str]:
    """Memories, then the links among them, then their events; each block in a stable order."""
    chosen = list(memories)
    ids = {memory.pk for memory in chosen}
    for memory in chosen:
        row: dict[str, Any] = {
            "type": "memory",
            "id": memory.pk,
            "content": memory.content,
            "kind": memory.kind,
            "owner": memory.owner.username,
            "project": memory.project.slug if memory.project else None,
            "visibility": memory.visibility,
            "provenance": memory.provenance,
            "session": memory.session,
            "session_key": memory.session_key,
            "metadata": memory.metadata,
            "state": memory.state,
            "superseded_by": memory.superseded_by_id,
            "invalidated_at": _time(memory.invalidated_at),
            "loop_status": memory.loop_status,
            "closed_by": memory.closed_by_id,
            "closed_at": _time(memory.closed_at),
            "valid_from": _time(memory.valid_from),
            "valid_until": _time(memory.valid_until),
            "purged_at": _time(memory.purged_at),
            "created_at": _time(memory.created_at),
            "updated_at": _time(memory.updated_at),
        }
        if embeddings:
            row["embedding"] = [round(float(x), 7) for x in memory.embedding]
            row["embedding_model"] = memory.embedding_model
        yield json.dumps(row, sort_keys=True, ensure_ascii=False)
    links = (
        Link.objects.filter(src_id__in=ids, dst_id__in=ids).select_related("created_by").order_by("created_at", "pk")
    )
    for link in links:
        yield json.dumps(
            {
                "type": "link",
                "id": link.pk,
                "src": link.src_id,
                "dst": link.dst_id,
                "link_type": link.type,
                "origin": link.origin,
                "reverted": link.reverted,
                "reverted_at": _time(link.reverted_at),
                "created_by": link.created_by.username if link.created_by else None,
                "created_at": _time(link.created_at),
            },
            sort_keys=True,
            ensure_ascii=False,
        )
    events = MemoryEvent.objects.filter(memory_id__in=ids).select_related("actor").order_by("created_at", "id")
    for event in events:
        yield json.dumps(
            {
                "type": "event",
                "memory": event.memory_id,
                "action": event.action,
                "actor": event.actor.username if event.actor else None,
                "reason": event.reason,
                "data": event.data,
                "created_at": _time(event.created_at),
            },
            sort_keys=True,
            ensure_ascii=False,
        )


@dataclass
class ImportReport:
    bad: list[tuple[int, str]] = field(default_factory=list)
    created: dict[str, int] = field(default_factory=lambda: {"memory": 0, "link": 0, "event": 0})
    skipped: dict[str, int] = field(default_factory=lambda: {"memory": 0, "link": 0, "event": 0})


class BadLine(ValueError):
    pass


def _need(row: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = row.get(key)
    if not isinstance(value, kind):
        raise BadLine(f"{key!r} is missing or not a {getattr(kind, '__name__', kind)}")
    return value


def _when(row: dict[str, Any], key: str, required: bool = True) -> datetime | None:
    raw = row.get(key)
    if raw is None and not required:
        return None
    parsed = parse_datetime(raw) if isinstance(raw, str) else None
    if parsed is None or parsed.tzinfo is None:
        raise BadLine(f"{key!r} is not an ISO 8601 timestamp with a time zone")
    return parsed


def _at(row: dict[str, Any], key: str) -> datetime:
    when = _when(row, key)
    if when is None:
        raise BadLine(f"{key!r} is required")
    return when


def _validate_memory(row: dict[str, Any]) -> None:
    if not MEMORY_ID_RE.match(_need(row, "id", str)):
        raise BadLine("'id' is not a memory id")
    content = _need(row, "content", str)
    if not content.strip() or len(content) > MAX_CONTENT_LENGTH:
        raise BadLine("'content' must be 1 to 8,000 characters")
    for key, choices in (("kind", Kind), ("visibility", Visibility), ("provenance", Provenance), ("state", State)):
        if row.get(key) not in choices.values:
            raise BadLine(f"{key!r} must be one of {', '.join(choices.values)}")
    _need(row, "owner", str)
    if not isinstance(row.get("metadata", {}), dict):
        raise BadLine("'metadata' must be an object")
    _when(row, "created_at")
    valid_from, valid_until = _when(row, "valid_from", required=False), _when(row, "valid_until", required=False)
    if valid_from is not None and valid_until is not None and valid_from >= valid_until:
        raise BadLine("'valid_until' must be after 'valid_from'")
    if row["state"] != State.LIVE:
        _when(row, "invalidated_at")
    if row["state"] == State.SUPERSEDED and not isinstance(row.get("superseded_by"), str):
        raise BadLine("a superseded memory needs 'superseded_by'")
    if _when(row, "purged_at", required=False) is not None and (content != TOMBSTONE or row["state"] == State.LIVE):
        raise BadLine(f"a purged memory's content is {TOMBSTONE!r} and it is not live")
    embedding = row.get("embedding")
    if embedding is not None and (not isinstance(embedding, list) or len(embedding) != get_embedder().dimensions):
        raise BadLine(f"'embedding' must be a list of {get_embedder().dimensions} numbers")


def _validate_link(row: dict[str, Any]) -> None:
    if not LINK_ID_RE.match(_need(row, "id", str)):
        raise BadLine("'id' is not a link id")
    for key in ("src", "dst"):
        if not MEMORY_ID_RE.match(_need(row, key, str)):
            raise BadLine(f"{key!r} is not a memory id")
    if row.get("link_type") not in LinkType.values or row.get("origin") not in LinkOrigin.values:
        raise BadLine("'link_type' or 'origin' is not a known value")
    _when(row, "created_at")


def _validate_event(row: dict[str, Any]) -> None:
    if not MEMORY_ID_RE.match(_need(row, "memory", str)):
        raise BadLine("'memory' is not a memory id")
    if row.get("action") not in EventAction.values:
        raise BadLine("'action' is not a known lifecycle action")
    _when(row, "created_at")


VALIDATORS = {"memory": _validate_memory, "link": _validate_link, "event": _validate_event}


class _SecretPolicies:
    """Each project's secret policy, read once per import (a project the file creates: redact)."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}

    def __call__(self, slug: str | None) -> str:
        if slug is None:
            return SecretPolicy.REDACT
        if slug not in self.known:
            found = Project.objects.filter(slug=slug).values_list("secret_policy", flat=True).first()
            self.known[slug] = found or SecretPolicy.REDACT
        return self.known[slug]


def _guard_secrets(row: dict[str, Any], policy_of: _SecretPolicies) -> None:
    """The write path's secret guard on an imported memory: redacted in place (its vector from
    the file dropped, it was computed from the secret), or the line refused under ``block``."""
    screened = secret_guard.screen(row["content"], row.get("metadata"), limit=MAX_CONTENT_LENGTH)
    if not screened.found:
        return
    if policy_of(row.get("project")) == SecretPolicy.BLOCK:
        raise BadLine(
            f"holds what looks like a credential ({', '.join(screened.types)}); "
            f"project {row.get('project')!r} blocks them"
        )
    row["content"], row["metadata"] = screened.content, screened.metadata
    row.pop("embedding", None)
    row[REDACTED_KEY] = screened.found


def _as_history() -> None:
    """The events this transaction writes restore history rather than announce news: the event
    feed's trigger leaves them out (migration 0016), so an import sends no webhooks."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('zeromemory.importing', 'on', true)")


def parse_lines(lines: Iterable[str], report: ImportReport) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    rows: dict[str, list[tuple[int, dict[str, Any]]]] = {"memory": [], "link": [], "event": []}
    policy_of = _SecretPolicies()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not isinstance(row, dict) or row.get("type") not in VALIDATORS:
                raise BadLine('not an object with "type" memory, link or event')
            VALIDATORS[row["type"]](row)
            if row["type"] == "memory":
                _guard_secrets(row, policy_of)
        except (ValueError, BadLine) as error:
            report.bad.append((number, str(error)))
            continue
        rows[row["type"]].append((number, row))
    # References must resolve to a memory in the file (valid lines) or already stored.
    known = {row["id"] for _, row in rows["memory"]}
    wanted = {row.get(k) for _, row in rows["memory"] for k in ("superseded_by", "closed_by")}
    wanted |= {row[k] for _, row in rows["link"] for k in ("src", "dst")} | {row["memory"] for _, row in rows["event"]}
    wanted.discard(None)
    known |= set(Memory.objects.filter(pk__in=wanted - known).values_list("pk", flat=True))
    for kind, keys in (("memory", ("superseded_by", "closed_by")), ("link", ("src", "dst")), ("event", ("memory",))):
        kept = []
        for number, row in rows[kind]:
            missing = [row[k] for k in keys if row.get(k) and row[k] not in known]
            if missing:
                report.bad.append((number, f"refers to {', '.join(missing)}, which is neither in the file nor stored"))
            else:
                kept.append((number, row))
        rows[kind] = kept
    return rows


def _batches(items: list[Any]) -> Iterator[list[Any]]:
    for start in range(0, len(items), BATCH):
        yield items[start : start + BATCH]


def _restore_lifecycles(memories: list[dict[str, Any]]) -> None:
    """Second pass: move each memory to its recorded lifecycle state (live -> retired only)."""
    for batch in _batches(memories):
        with transaction.atomic():
            tombstones = [row["id"] for row in batch if row.get("purged_at")]
            if tombstones:
                # A tombstone comes back as one (migration 0020 allows purged_at on this path only).
                with connection.cursor() as cursor:
                    cursor.execute("SELECT set_config('zeromemory.purging', %s, true)", [",".join(tombstones)])
            for row in batch:
                recorded: dict[str, Any] = {
                    "loop_status": row.get("loop_status"),
                    "closed_by_id": row.get("closed_by"),
                    "closed_at": _when(row, "closed_at", required=False),
                    "updated_at": _when(row, "updated_at", required=False) or _at(row, "created_at"),
                }
                if row["state"] not in (State.LIVE, State.PENDING):
                    recorded |= {
                        "state": row["state"],
                        "superseded_by_id": row.get("superseded_by"),
                        "invalidated_at": _at(row, "invalidated_at"),
                    }
                if row.get("purged_at"):
                    recorded["purged_at"] = _at(row, "purged_at")
                Memory.objects.filter(pk=row["id"], state__in=[State.LIVE, State.PENDING]).update(**recorded)


def import_rows(rows: dict[str, list[tuple[int, dict[str, Any]]]], report: ImportReport, progress: Any) -> None:
    users: dict[str, User] = {}
    projects: dict[str, Project] = {}

    def user(name: str | None) -> User | None:
        if name is None:
            return None
        if name not in users:
            users[name] = User.objects.get_or_create(username=name)[0]
        return users[name]

    def project(slug: str | None) -> Project | None:
        if slug is None:
            return None
        if slug not in projects:
            projects[slug], created = Project.objects.get_or_create(slug=slug, defaults={"name": slug})
            if created:  # audited as create_project would be (the services are not this layer's)
                AccountEvent.objects.create(
                    action=AccountAction.PROJECT_CREATED, via="manage.py import_memories", project_slug=slug
                )
        return projects[slug]

    memories = [row for _, row in rows["memory"]]
    existing = set(Memory.objects.filter(pk__in=[r["id"] for r in memories]).values_list("pk", flat=True))
    fresh = [row for row in memories if row["id"] not in existing]
    report.skipped["memory"] += len(memories) - len(fresh)
    # Every memory has a created or imported event (SPEC §8). A line whose memory brings no
    # creation event of its own (a hand-edited or third-party file) gets an imported event,
    # written in the memory's own transaction, so no memory is ever stored without one; a
    # memory that exists already was born before, so a second import adds nothing.
    born = {row["memory"] for _, row in rows["event"] if row["action"] in CREATION_ACTIONS}
    for batch in _batches(fresh):
        texts = [row["content"] for row in batch if row.get("embedding") is None]
        computed = iter(get_embedder().embed(texts)) if texts else iter(())
        sentence_sets = embed_sentences([row["content"] for row in batch])
        unborn = [row["id"] for row in batch if row["id"] not in born]
        with transaction.atomic():
            Memory.objects.bulk_create(
                Memory(
                    id=row["id"],
                    content=row["content"],
                    content_fingerprint=content_fingerprint(row["content"]),
                    kind=row["kind"],
                    owner=user(row["owner"]),
                    project=project(row.get("project")),
                    visibility=row["visibility"],
                    provenance=row["provenance"],
                    session=row.get("session"),
                    session_key=row.get("session_key") or row.get("session") or "",
                    metadata=row.get("metadata") or {},
                    embedding=row["embedding"] if row.get("embedding") is not None else next(computed),
                    embedding_model=row.get("embedding_model", "")
                    if row.get("embedding") is not None
                    else get_embedder().name,
                    # Pending ones are stored pending: nothing may move a memory into review.
                    state=State.PENDING if row["state"] == State.PENDING else State.LIVE,
                    loop_status=LoopStatus.OPEN if row["kind"] in LOOP_KINDS else None,
                    valid_from=_when(row, "valid_from", required=False),
                    valid_until=_when(row, "valid_until", required=False),
                    created_at=_at(row, "created_at"),
                    updated_at=_at(row, "created_at"),
                )
                for row in batch
            )
            MemoryEvent.objects.bulk_create(
                MemoryEvent(memory_id=memory_id, action=EventAction.IMPORTED, actor=None, data=dict(IMPORTED_DATA))
                for memory_id in unborn
            )
            MemoryEvent.objects.bulk_create(
                MemoryEvent(
                    memory_id=row["id"],
                    action=EventAction.SECRET_REDACTED,
                    actor=None,
                    data={"findings": row[REDACTED_KEY], "via": "import_memories"},
                )
                for row in batch
                if row.get(REDACTED_KEY)
            )
            # Sentence vectors are derived, not exported: computed here as a write computes them.
            MemorySentence.objects.bulk_create(
                MemorySentence(memory_id=row["id"], position=position, embedding=vector)
                for row, found in zip(batch, sentence_sets, strict=True)
                for position, vector in enumerate(found)
            )
        report.created["memory"] += len(batch)
        report.created["event"] += len(unborn)
        progress.update(len(batch))
    _restore_lifecycles(memories)
    links = [row for _, row in rows["link"]]
    known_links = set(Link.objects.filter(pk__in=[r["id"] for r in links]).values_list("pk", flat=True))
    for batch in _batches([row for row in links if row["id"] not in known_links]):
        with transaction.atomic():
            Link.objects.bulk_create(
                Link(
                    id=row["id"],
                    src_id=row["src"],
                    dst_id=row["dst"],
                    type=row["link_type"],
                    origin=row["origin"],
                    reverted=bool(row.get("reverted")),
                    reverted_at=_when(row, "reverted_at", required=False),
                    created_by=user(row.get("created_by")),
                    created_at=_at(row, "created_at"),
                )
                for row in batch
            )
        report.created["link"] += len(batch)
    report.skipped["link"] += len(known_links)
    events = [row for _, row in rows["event"]]
    for batch in _batches(events):
        with transaction.atomic():
            _as_history()
            present = set(
                MemoryEvent.objects.filter(memory_id__in={r["memory"] for r in batch}).values_list(
                    "memory_id", "action", "created_at"
                )
            )
            new = [r for r in batch if (r["memory"], r["action"], _when(r, "created_at")) not in present]
            MemoryEvent.objects.bulk_create(
                MemoryEvent(
                    memory_id=row["memory"],
                    action=row["action"],
                    actor=user(row.get("actor")),
                    reason=secret_guard.redacted(row.get("reason") or ""),
                    data=row.get("data") or {},
                    created_at=_at(row, "created_at"),
                )
                for row in new
            )
        report.created["event"] += len(new)
        report.skipped["event"] += len(batch) - len(new)
