"""remember: store a memory, with the dedup cascade and the declared supersede (SPEC §3)."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper, QuerySet

from memories import hooks, secret_guard
from memories.choices import (
    LOOP_KINDS,
    AccountAction,
    EventAction,
    LinkOrigin,
    LinkType,
    LoopStatus,
    OnStale,
    Provenance,
    SecretPolicy,
    State,
    Visibility,
)
from memories.compiled import USER_ID, CompiledQuery, id_slots, id_values, ids_of
from memories.embedding import EmbeddingError, embed_one, embed_sentences, get_embedder
from memories.errors import (
    DatabaseUnavailable,
    EmbeddingFailed,
    ErrorCode,
    Forbidden,
    NotFound,
    SecretDetected,
    ValidationFailed,
)
from memories.locks import advisory_lock, lock_memories, locking
from memories.models import MAX_CONTENT_LENGTH, AccountEvent, Credential, Memory, Project, token_scope
from memories.search import tsvector_counts
from memories.secret_guard import Screened
from memories.selectors import SimilarMemory, project_for_member, similar_existing
from memories.services.lifecycle import event_append, link_record, retire_all_by_successor
from memories.services.sentences import memory_sentences_store
from memories.services.stale import Relock, TargetPlan, chain_ends, resolve_stale
from memories.text import content_fingerprint
from memories.visibility import Action, compiled_rule_applies, visibility_condition, visible_memories

logger = logging.getLogger(__name__)

MAX_SUPERSEDES = 10
# A write whose named versions keep moving starts over at most this many times (each start is
# caused by another write that committed a new head meanwhile).
MAX_RELOCKS = 25
# The states a write's text is looked up in: live (absorbed, R-D1) and superseded (R-D3).
FINGERPRINTED_STATES = (State.LIVE, State.SUPERSEDED)


@dataclass(frozen=True)
class LinkSpec:
    type: str
    dst: str


@dataclass
class RememberResult:
    memory: Memory
    absorbed: bool
    superseded: list[str] = field(default_factory=list)
    skipped: list[dict[str, str | None]] = field(default_factory=list)
    # Stale targets whose current version the write superseded instead (on_stale "follow").
    followed: list[dict[str, str]] = field(default_factory=list)
    # None when the write replaced something: the list is then not part of the answer.
    similar_existing: list[SimilarMemory] | None = None
    # Retired versions whose text this write restates (R-D3).
    matches_retired: list[dict[str, str | None]] = field(default_factory=list)
    # What the secret guard replaced: [{"type", "where"}], never the secret itself.
    redacted: list[dict[str, str]] = field(default_factory=list)


def content_vectors(content: str) -> tuple[list[float], list[list[float]]]:
    """The content's vector and its sentences' (none for one sentence): ``memory_remember``'s
    ``vectors``, for a caller that embeds before its transaction opens (an idempotent remember)."""
    try:
        return embed_one(content), embed_sentences([content])[0]
    except EmbeddingError as exc:
        raise EmbeddingFailed("The embedding model failed; nothing was stored. Retry the request.") from exc


def _unique(items: list[Any]) -> list[Any]:
    return list(dict.fromkeys(items))


def memory_remember(
    *,
    user: User,
    credential: Credential | None,
    content: str,
    kind: str,
    project_slug: str | None = None,
    visibility: str | None = None,
    session: str | None = None,
    metadata: dict[str, Any] | None = None,
    links: list[LinkSpec] | None = None,
    valid_from: datetime | None = None,
    valid_until: datetime | None = None,
    on_stale: str = OnStale.SKIP,
    vectors: tuple[list[float], list[list[float]]] | None = None,
) -> RememberResult:
    """Store ``content`` for ``user``; input is already validated field by field. ``vectors``:
    the content's vector and its sentences', when the caller embedded a batch at once.

    Checks run in SPEC R-S10's order: the supersede cap (400), provenance (403), project
    (404), then each declared target (R-S5/R-S6). Everything after the embedding happens in
    one transaction: a failure leaves nothing behind (R-S9).
    """
    _check_token_scope(user, project_slug)
    links = links or []
    supersede_ids = _unique([link.dst for link in links if link.type == LinkType.SUPERSEDES])
    other_links = _unique([link for link in links if link.type != LinkType.SUPERSEDES])
    provenance = _check_declaration(credential, supersede_ids)
    project = project_for_member(user=user, slug=project_slug) if project_slug else None
    screened = _guard_secrets(user=user, credential=credential, project=project, content=content, metadata=metadata)
    if screened.found:
        content, metadata = screened.content, screened.metadata
        vectors = None  # a batch embedded the text as sent; the redacted one is what is stored
    embedding, sentence_vectors = vectors if vectors is not None else content_vectors(content)
    # Under the project's review policy a provisional write shared with the project waits for a
    # maintainer: stored, shown to its owner and the maintainers, and counted nowhere until
    # approved (services.moderation). A private capture counts at once: no maintainer may read
    # another member's private memory, so nobody could ever approve it.
    pending = (
        provenance == Provenance.PROVISIONAL
        and project is not None
        and project.review_provisional
        and (visibility or Visibility.PROJECT) == Visibility.PROJECT
    )
    new_memory = Memory(
        content=content,
        content_fingerprint=content_fingerprint(content),
        kind=kind,
        owner=user,
        project=project,
        # Personal memories are always private; R-V1 refused "project" for them.
        visibility=(visibility or Visibility.PROJECT) if project is not None else Visibility.PRIVATE,
        provenance=provenance,
        credential=credential,
        session=session,
        session_key=session or (credential.default_session if credential is not None else ""),
        metadata=metadata or {},
        embedding=embedding,
        embedding_model=get_embedder().name,
        loop_status=LoopStatus.OPEN if kind in LOOP_KINDS else None,
        state=State.PENDING if pending else State.LIVE,
        valid_from=valid_from,
        valid_until=valid_until,
    )

    heads: set[str] = set()
    for _attempt in range(MAX_RELOCKS):
        try:
            with transaction.atomic():
                return _store(
                    user=user,
                    credential=credential,
                    new_memory=new_memory,
                    supersede_ids=supersede_ids,
                    other_links=other_links,
                    heads=heads,
                    on_stale=on_stale,
                    pending=pending,
                    screened=screened,
                    sentence_vectors=sentence_vectors,
                )
        except Relock as relock:
            # Rolled back, row locks released: lock the heads with the targets, in one order.
            heads |= relock.ids
    raise DatabaseUnavailable(
        "The versions this write names kept changing under concurrent writes; nothing was stored. Retry."
    )


def _store(
    *,
    user: User,
    credential: Credential | None,
    new_memory: Memory,
    supersede_ids: list[str],
    other_links: list[LinkSpec],
    heads: set[str],
    on_stale: str,
    pending: bool,
    screened: Screened,
    sentence_vectors: list[list[float]],
) -> RememberResult:
    """The write's transaction: everything after the embedding (R-S9)."""
    restated = _restated(new_memory)
    absorbing_id = restated.live_id
    if supersede_ids:
        locked = _lock_with_rights(user, [*supersede_ids, *([absorbing_id] if absorbing_id else []), *heads])
    else:
        locked = lock_memories([absorbing_id] if absorbing_id else [])
    absorbing = locked.get(absorbing_id) if absorbing_id else None
    if absorbing is not None and absorbing.state != State.LIVE:
        absorbing = None  # retired by a concurrent write before we locked it

    memory = absorbing or new_memory
    plan = _classify_targets(user, supersede_ids, locked, absorbing, on_stale=on_stale, successor_id=memory.pk)
    link_targets = _link_targets(user, other_links)

    if absorbing is None:
        _insert(user, credential, new_memory, sentence_vectors, pending=pending)
    superseded = _retire_declared(user, credential, memory, plan, new=absorbing is None)
    for stale_id, head in plan.forks:
        _fork_record(user=user, credential=credential, memory=memory, stale_id=stale_id, head=head)
    if screened.found:
        event_append(
            memory=memory,
            action=EventAction.SECRET_REDACTED,
            actor=user,
            credential=credential,
            data={"findings": screened.found},
        )
    for link in other_links:
        if link.dst == memory.pk:
            logger.info("remember: dropped a %s link from %s to itself", link.type, memory.pk)
            continue
        link_record(src=memory, dst=link_targets[link.dst], type=link.type, origin=LinkOrigin.LINK, actor=user)

    similar = None
    # R-N…: the writer needs the same help when it declared nothing or nothing it named was
    # replaced (every target skipped).
    if not superseded:
        similar = similar_existing(
            user=user,
            embedding=new_memory.embedding,
            text=new_memory.content,
            project=new_memory.project,
            exclude_ids=[memory.pk],
            # The stored vector of this very content came back from the INSERT.
            lexemes=tsvector_counts(new_memory.search_vector) if absorbing is None else None,
            sentence_vectors=sentence_vectors,
        )
    if not supersede_ids and absorbing is None and not pending:  # judged once approved, if it is
        for created_hook in hooks.on_undeclared_write_committed:
            transaction.on_commit(lambda hook=created_hook: hook(new_memory))  # type: ignore[misc]

    for entry in plan.skipped:
        logger.info("remember: skipped supersede target %s (%s) for %s", entry["dst"], entry["reason"], memory.pk)
    return RememberResult(
        memory=memory,
        absorbed=absorbing is not None,
        superseded=superseded,
        skipped=plan.skipped,
        followed=plan.followed,
        similar_existing=similar,
        matches_retired=_matches_retired(user, restated.retired_ids) if absorbing is None else [],
        redacted=screened.found,
    )


def _insert(
    user: User, credential: Credential | None, memory: Memory, sentence_vectors: list[list[float]], *, pending: bool
) -> None:
    memory.save(force_insert=True)
    if sentence_vectors:
        memory_sentences_store(vectors_by_memory={memory.pk: sentence_vectors})
    event_append(
        memory=memory,
        action=EventAction.SUBMITTED if pending else EventAction.CREATED,
        actor=user,
        credential=credential,
    )


def _fork_record(*, user: User, credential: Credential | None, memory: Memory, stale_id: str, head: Memory) -> None:
    """R-S12: the write and ``head`` are two live versions of the chain ``stale_id`` belongs to.
    The event keeps the fork on record (check_integrity, the sweep); the hook opens its conflict
    in this transaction."""
    event_append(
        memory=memory,
        action=EventAction.FORKED,
        actor=user,
        credential=credential,
        data={"stale": stale_id, "current": head.pk},
    )
    logger.info("remember: %s forks the chain of %s beside its head %s", memory.pk, stale_id, head.pk)
    for hook in hooks.on_fork:
        hook(memory, head, stale_id)


def _guard_secrets(
    *,
    user: User,
    credential: Credential | None,
    project: Project | None,
    content: str,
    metadata: dict[str, Any] | None,
) -> Screened:
    """The secret guard under the project's policy: what to store instead (redact), or a 400
    that stores nothing (block), audited either way without the secret."""
    screened = secret_guard.screen(content, metadata, limit=MAX_CONTENT_LENGTH)
    if not screened.found or project is None or project.secret_policy != SecretPolicy.BLOCK:
        return screened
    types = ", ".join(screened.types)
    AccountEvent.objects.create(
        action=AccountAction.SECRET_BLOCKED,
        actor=user,
        via="remember",
        project_slug=project.slug,
        username=user.get_username(),
        credential_prefix=credential.prefix if credential is not None else "",
        data={"findings": screened.found},
    )
    logger.warning("remember: refused a write into %s holding %s (secret guard)", project.slug, types)
    fields: dict[str, list[str]] = {}
    for item in screened.found:
        where = "content" if item["where"] == "content" else "metadata"
        fields.setdefault(where, []).append(f"looks like a credential ({item['type']}) at {item['where']}")
    raise SecretDetected(
        f"Project {project.slug!r} does not store credentials, and this write looks like it holds one ({types}). "
        "Remove it, or store a reference to where the secret is kept instead; nothing was stored.",
        fields=fields,
    )


def _check_token_scope(user: User, project_slug: str | None) -> None:
    """A read-only token writes nothing; one narrowed to projects writes only into them (a
    project outside them answers 404, as one the user is not in: memories.visibility)."""
    scope = token_scope(user)
    if scope is None:
        return
    if scope.read_only:
        raise Forbidden("This token is read-only.", code=ErrorCode.READ_ONLY_TOKEN)
    if scope.project_ids and not project_slug:
        raise Forbidden(
            "This token is scoped to projects; name one of them in `project`.",
            code=ErrorCode.OUTSIDE_TOKEN_SCOPE,
        )


def _check_declaration(credential: Credential | None, supersede_ids: list[str]) -> str:
    """R-V2 (400) before R-V3 (403); returns the write's provenance."""
    if len(supersede_ids) > MAX_SUPERSEDES:
        raise ValidationFailed(
            f"A write may declare at most {MAX_SUPERSEDES} supersedes; this one names {len(supersede_ids)}.",
            code=ErrorCode.TOO_MANY_SUPERSEDES,
            fields={"links": [f"at most {MAX_SUPERSEDES} distinct supersedes targets"]},
        )
    provenance = credential.provenance if credential is not None else Provenance.AUTHORITATIVE
    if supersede_ids and provenance == Provenance.PROVISIONAL:
        raise Forbidden(
            "A provisional credential may not declare supersedes; write without the declaration.",
            code=ErrorCode.PROVISIONAL_CANNOT_SUPERSEDE,
        )
    return provenance


@dataclass(frozen=True)
class Restated:
    # The live memory this write restates near-verbatim in its session (R-D1), if any.
    live_id: str | None
    # Retired versions of the caller's in the same scope with the same text (R-D3).
    retired_ids: list[str]


def _restated(memory: Memory) -> Restated:
    """What this write's text already is in the store, in one statement (R-D1, R-D3).

    Identical writes racing each other queue on an advisory lock first, so the second one
    sees the first and is absorbed instead of creating a twin.
    """
    advisory_lock("remember", memory.owner_id, memory.project_id or "", memory.session_key, memory.content_fingerprint)
    rows = (
        Memory.objects.filter(
            owner_id=memory.owner_id,
            project=memory.project,
            content_fingerprint=memory.content_fingerprint,
            state__in=FINGERPRINTED_STATES,
        )
        .order_by("created_at", "pk")
        .values_list("pk", "state", "session_key")
    )
    live_id, retired_ids = None, []
    for pk, state, session_key in rows:
        if state != State.LIVE:
            retired_ids.append(pk)
        elif live_id is None and session_key == memory.session_key:
            live_id = pk
    return Restated(live_id=live_id, retired_ids=retired_ids)


def _matches_retired(user: User, retired_ids: list[str]) -> list[dict[str, str | None]]:
    """R-D3: each retired version the write restates, with the version current now."""
    if not retired_ids:
        return []
    ends = chain_ends(retired_ids)
    live = set(visible_memories(user).filter(pk__in=set(ends.values()), state=State.LIVE).values_list("pk", flat=True))
    return [
        {"id": pk, "state": State.SUPERSEDED, "current": ends[pk] if ends.get(pk) in live else None}
        for pk in retired_ids
    ]


def _retire_declared(
    user: User, credential: Credential | None, successor: Memory, plan: TargetPlan, *, new: bool
) -> list[str]:
    # The rows are locked and were read live: a lost race cannot happen here, and would fail
    # the whole write (LostRace is a RuntimeError) rather than retire some targets silently.
    retire_all_by_successor(
        targets=plan.to_retire,
        successor=successor,
        origin=LinkOrigin.DECLARED,
        actor=user,
        credential=credential,
        new_successor=new,
    )
    if plan.to_retire or plan.skipped:
        for hook in hooks.on_supersede_declared:
            hook(successor, plan.to_retire)
    return [target.pk for target in plan.to_retire]


# The statement of _lock_with_rights per number of ids, compiled once per process
# (memories.compiled): building the rule twice and compiling it cost more CPU than the statement
# took to run, and prepared, its planning (0.43 of its 0.5 ms) is done once per connection. A
# write names at most MAX_SUPERSEDES targets, its dedup hit and their chains' heads.
@functools.cache
def _lock_statement(count: int) -> CompiledQuery[Memory]:
    def build(user_id: int, **ids: str) -> QuerySet[Memory]:
        return locking(ids_of(ids, count), annotations=_rights(User(pk=user_id, is_active=True)))

    return CompiledQuery(Memory, build, [USER_ID, *id_slots(count)], for_write=True)


def _lock_with_rights(user: User, ids: list[str]) -> dict[str, Memory]:
    """``lock_memories`` of ``ids`` with the caller's rights over each (``_rights``), in one
    statement: for a full token, the compiled one for this many ids."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    if compiled_rule_applies(user):
        rows = _lock_statement(len(wanted)).run("lock", user_id=user.pk, **id_values(wanted))
    else:  # a superuser's or a scoped token's rule has another shape: built as it comes
        rows = list(locking(wanted, annotations=_rights(user)))
    return {memory.pk: memory for memory in rows}


def _rights(user: User) -> dict[str, ExpressionWrapper[Any]]:
    """The caller's rights over each locked target, by the one visibility rule, read in the
    statement that locks the targets (two statements of their own before)."""
    return {
        "zm_visible": ExpressionWrapper(visibility_condition(user, Action.VIEW), output_field=BooleanField()),
        "zm_retirable": ExpressionWrapper(visibility_condition(user, Action.RETIRE), output_field=BooleanField()),
    }


def _classify_targets(
    user: User,
    supersede_ids: list[str],
    locked: dict[str, Memory],
    absorbing: Memory | None,
    *,
    on_stale: str,
    successor_id: str,
) -> TargetPlan:
    """Per target, in SPEC R-S6's order: visibility (403), liveness (skip, or R-S11's stale
    handling), right to retire (403). ``locked`` carries the rights (``_rights``)."""
    plan = TargetPlan()
    stale: list[Memory] = []
    for target_id in supersede_ids:
        target = locked.get(target_id)
        if target is None:
            plan.skipped.append({"dst": target_id, "reason": "missing"})
        elif not target.zm_visible:  # type: ignore[attr-defined]
            raise _target_forbidden(target_id)
        elif absorbing is not None and target_id == absorbing.pk:
            plan.skipped.append({"dst": target_id, "reason": "self"})
        elif target.state == State.SUPERSEDED:
            stale.append(target)
        elif target.state != State.LIVE:
            # Forgotten (or awaiting review): never stale, so no head to name (R-S11).
            plan.skipped.append({"dst": target_id, "reason": "dead", "current": None})
        elif not target.zm_retirable:  # type: ignore[attr-defined]
            raise _target_forbidden(target_id)
        else:
            plan.to_retire.append(target)
    resolve_stale(
        stale=stale,
        locked=locked,
        plan=plan,
        on_stale=on_stale,
        successor_id=successor_id,
        forbidden=_target_forbidden,
    )
    return plan


def _target_forbidden(target_id: str) -> Forbidden:
    # Names the id the caller sent, never anything of the target itself.
    return Forbidden(
        f"You may not supersede {target_id}: it is not yours to retire. Nothing was stored.",
        code=ErrorCode.SUPERSEDE_TARGET_FORBIDDEN,
    )


def _link_targets(user: User, links: list[LinkSpec]) -> dict[str, Memory]:
    """Both ends of a recorded link must be visible; a missing or invisible end is a 404."""
    if not links:
        return {}
    wanted = {link.dst for link in links}
    found = {memory.pk: memory for memory in visible_memories(user).filter(pk__in=wanted)}
    for link in links:
        if link.dst not in found:
            raise NotFound(f"Link target {link.dst} not found; nothing was stored.", fields={"links": [link.dst]})
    return found
