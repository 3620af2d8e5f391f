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
