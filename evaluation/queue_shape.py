"""The shape of the review queue a run left: how many decisions a person faces, and R-H9.

A person does not decide conflicts one by one when they dispute the same memories: pending
conflicts that share a memory (older or newer) are one **group**, one decision, and so are
conflicts of one owner and scope whose ``slot`` (the subject and attribute both statements state,
as the structure reads it) is the same non-empty key — when the table has that column at all.
Groups are the connected components of those links.

R-H9 says a new memory opens at most one pending conflict: ``memories_newer_in_several`` counts
the memories that are the newer side of more than one pending conflict (a breach), and
``memories_in_several`` those in more than one pending conflict on either side (a memory disputed
by two later ones is allowed, but is one more sign of a queue that repeats itself).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from evaluation.harness import ConflictRow


class _Components:
    """Union-find over conflict ids."""

    def __init__(self, ids: Sequence[int]) -> None:
        self.parent = {conflict_id: conflict_id for conflict_id in ids}

    def find(self, item: int) -> int:
        root = item
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[item] != root:  # path compression
            self.parent[item], item = root, self.parent[item]
        return root

    def join(self, a: int, b: int) -> None:
        root_a, root_b = self.find(a), self.find(b)
        if root_a != root_b:
            self.parent[max(root_a, root_b)] = min(root_a, root_b)


def conflict_groups(conflicts: Sequence[ConflictRow]) -> list[list[int]]:
    """The groups of ``conflicts`` (pass the pending ones): conflict ids, each group sorted, the
    groups in order of their first conflict."""
    components = _Components([conflict.id for conflict in conflicts])
    first_with: dict[Any, int] = {}
    for conflict in conflicts:
        keys: list[Any] = [("memory", conflict.older), ("memory", conflict.newer)]
        if conflict.slot:
            keys.append(("slot", conflict.owner, conflict.project, conflict.slot))
        for key in keys:
            if key in first_with:
                components.join(first_with[key], conflict.id)
            else:
                first_with[key] = conflict.id
    groups: dict[int, list[int]] = {}
    for conflict in conflicts:
        groups.setdefault(components.find(conflict.id), []).append(conflict.id)
    return sorted((sorted(ids) for ids in groups.values()), key=lambda ids: ids[0])


def queue_shape(pending: Sequence[ConflictRow], *, writes: int, slot_column: bool) -> dict[str, Any]:
    """Groups (decisions) per 100 writes, their sizes, and the R-H9 counts of ``pending``."""
    groups = conflict_groups(pending)
    newer = Counter(conflict.newer for conflict in pending)
    either = Counter(memory for conflict in pending for memory in {conflict.older, conflict.newer})
    sizes = Counter(len(group) for group in groups)
    return {
        "pending_conflicts": len(pending),
        "groups": len(groups),
        "groups_per_100_writes": round(100 * len(groups) / writes, 2) if writes else None,
        "largest_group": max((len(group) for group in groups), default=0),
        "group_sizes": {str(size): sizes[size] for size in sorted(sizes)},
        "grouped_by_slot": slot_column,
        "memories_newer_in_several": sum(1 for count in newer.values() if count > 1),
        "memories_in_several": sum(1 for count in either.values() if count > 1),
    }
