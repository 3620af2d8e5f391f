"""Errors of the review queue beyond the domain's shared ones (memories.errors)."""

from __future__ import annotations

from typing import Any

from memories.errors import DomainError, ErrorCode
from review.selectors import ConflictGroup


class GroupChanged(DomainError):
    """A group decision named a group that is not the conflict's group now (another decision,
    a new conflict or a settled one changed it): nothing changed. ``group`` is the group as it
    is now; the API shows it (``rendered``) so that the moderator can decide again."""

    code = ErrorCode.GROUP_CHANGED

    def __init__(self, message: str, *, group: ConflictGroup) -> None:
        super().__init__(message)
        self.group = group
        self.rendered: dict[str, Any] = {"conflicts": list(group.conflicts), "values": list(group.values)}

    def extra(self) -> dict[str, Any]:
        return {"group": self.rendered}
