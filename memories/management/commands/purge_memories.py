"""manage.py purge_memories: erase memories' content for good (memories.services.purge)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from memories.errors import DomainError
from memories.models import Memory
from memories.services import memory_purge
from memories.text import preview


class Command(BaseCommand):
    help = (
        "Erase the content, metadata and vectors of the given memories, keeping their ids, links and "
        "events, with a 'purged' event naming the reason: the one deliberate exception to the "
        "forward-only store (an erasure request, a pasted secret). All or nothing; cannot be undone."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("memory_ids", nargs="+", metavar="MEMORY_ID", help="mem_… ids to purge.")
        parser.add_argument("--reason", required=True, help="Why (recorded in each memory's purged event).")
        parser.add_argument("--dry-run", action="store_true", help="Show what would be purged; change nothing.")
        parser.add_argument("--yes", action="store_true", help="Do not ask for confirmation.")

    def handle(self, *args: Any, memory_ids: list[str], reason: str, **options: Any) -> None:
        ids = sorted(set(memory_ids))
        found = {memory.pk: memory for memory in Memory.objects.filter(pk__in=ids).select_related("owner", "project")}
        missing = [memory_id for memory_id in ids if memory_id not in found]
        if missing:
            raise CommandError(f"No memory {', '.join(missing)}; nothing was purged.")
        if not reason.strip():
            raise CommandError("--reason must say why; nothing was purged.")
        for memory_id in ids:
            memory = found[memory_id]
            where = memory.project.slug if memory.project is not None else "personal"
            status = "already purged" if memory.purged_at is not None else memory.state
            self.stdout.write(f"{memory_id}  {memory.owner.username}  {where}  {status}  {preview(memory.content, 60)}")
        todo = [memory_id for memory_id in ids if found[memory_id].purged_at is None]
        if options["dry_run"]:
            self.stdout.write(f"Dry run: {len(todo)} memor{'y' if len(todo) == 1 else 'ies'} would be purged.")
            return
        if not todo:
            self.stdout.write("Nothing to purge: all of them are purged already.")
            return
        if not options["yes"]:
            if not sys.stdin.isatty():
                raise CommandError("Not a terminal: pass --yes to confirm; nothing was purged.")
            answer = input(f"Erase the content of {len(todo)} memories for good? Type {len(todo)} to confirm: ")
            if answer.strip() != str(len(todo)):
                raise CommandError("Not confirmed; nothing was purged.")
        try:
            done = memory_purge(actor=None, via="manage.py purge_memories", memory_ids=todo, reason=reason)
        except DomainError as error:
            raise CommandError(f"{error.message} Nothing was purged.") from None
        self.stdout.write(
            self.style.WARNING(f"Purged {len(done.purged)} memor{'y' if len(done.purged) == 1 else 'ies'}.")
        )
