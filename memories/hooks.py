"""Extension points for apps that build on memories (the review app) without memories
depending on them. ``on_supersede_declared`` runs inside the writing transaction, so what it
changes commits or rolls back with the write; ``on_undeclared_write_committed`` runs only once
the write has committed (``transaction.on_commit``), for side effects such as enqueueing a task."""

from __future__ import annotations

from collections.abc import Callable

from memories.models import Memory

SupersedeHook = Callable[[Memory, list[Memory]], None]
CreatedHook = Callable[[Memory], None]

# Called with (successor, retired targets) when a write declares a supersede.
on_supersede_declared: list[SupersedeHook] = []
# Called after commit with each memory created by a write that declared no supersede.
on_undeclared_write_committed: list[CreatedHook] = []

PurgedHook = Callable[[list[str]], None]
# Called inside the purge's transaction with the ids purged: other apps erase their own copies
# of the words (the review app: its judges' rationales).
on_memories_purged: list[PurgedHook] = []

ForkHook = Callable[[Memory, Memory, str], None]
# Called inside the writing transaction with (the write's memory, the chain's live head, the
# stale version both replace) when a write forks a version chain (SPEC R-S12): the review app
# opens the pair's conflict, so that the fork commits with its conflict or not at all.
on_fork: list[ForkHook] = []

# Called inside the transaction of every retirement by a successor outside a remember (hygiene,
# moderators: memories.services.supersede and moderation) with (successor, retired targets),
# after the rows changed: a fork's conflict names the chain's current head, and moves on with
# it. A remember's own retirements are told to on_supersede_declared instead.
on_superseded: list[SupersedeHook] = []

ForkCheck = Callable[[list[tuple[str, str, str]]], set[tuple[str, str]]]
# Given forks as (stale version, one live head, the other live head), the pairs of heads that a
# conflict accounts for (pending, or settled by a person as two facts). Without a checker, no
# fork is accounted for (SPEC §8: check_integrity reports it).
fork_accounted: list[ForkCheck] = []
