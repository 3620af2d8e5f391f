"""link (SPEC R-O4): a graph edge between two visible memories; nothing retires."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from memories.choices import EventAction, LinkOrigin
from memories.errors import Forbidden, ValidationFailed, memory_not_found
from memories.models import Link
from memories.services.lifecycle import event_append, link_record
from memories.visibility import Action, permits, visible_memories


def link_create(*, user: User, src_id: str, dst_id: str, type: str) -> tuple[Link, bool]:
    """Record ``src -type-> dst``; ``True`` when created. A graph edge only: nothing retires."""
    if src_id == dst_id:
        raise ValidationFailed("A memory cannot link to itself.", fields={"dst": ["must differ from src"]})
    with transaction.atomic():
        ends = {m.pk: m for m in visible_memories(user).filter(pk__in=[src_id, dst_id])}
        for end in (src_id, dst_id):
            if end not in ends:
                raise memory_not_found(end)
        src, dst = ends[src_id], ends[dst_id]
        if not permits(user, Action.RETIRE, src):
            raise Forbidden("You may link only from memories you may write (yours, or your projects' as maintainer).")
        link, created = link_record(src=src, dst=dst, type=type, origin=LinkOrigin.LINK, actor=user)
        if created:
            event_append(memory=src, action=EventAction.LINKED, actor=user, data={"link": link.pk, "dst": dst.pk})
    return link, created
