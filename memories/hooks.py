"""Extension points for apps that build on memories (the review app) without memories
depending on them. Hooks run inside the writing transaction, so what they change commits
or rolls back with the write."""

from __future__ import annotations

from collections.abc import Callable

from memories.models import Memory

SupersedeHook = Callable[[Memory, list[Memory]], None]
CreatedHook = Callable[[Memory], None]

# Called with (successor, retired targets) when a write declares a supersede.
on_supersede_declared: list[SupersedeHook] = []
# Called after commit with each memory created by a write that declared no supersede.
on_undeclared_write_committed: list[CreatedHook] = []
