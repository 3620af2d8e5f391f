from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from memories.models import Memory
from memories.transfer import export_lines


class Command(BaseCommand):
    help = (
        "Write memories, the links among them and their lifecycle events as JSON Lines, one "
        'object per line with a "type" of memory, link or event, to --output or stdout. Owners '
        "are written by username and projects by slug, so the file can be imported into another "
        "deployment with import_memories. Filters narrow what is written; ids, lifecycle, loops, "
        "metadata and events are kept as they are. --embeddings includes the vectors (an import "
        "then needs no re-embedding)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", type=Path, help="File to write (default: stdout).")
        parser.add_argument("--project", help="Only this project's memories (slug).")
        parser.add_argument("--owner", help="Only this user's memories (username).")
        parser.add_argument("--state", choices=["live", "superseded", "forgotten", "all"], default="all")
        parser.add_argument("--embeddings", action="store_true", help="Include the embedding vectors.")

    def handle(
        self,
        *args: Any,
        output: Path | None,
        project: str | None,
        owner: str | None,
        state: str,
        embeddings: bool,
        **options: Any,
    ) -> None:
        memories = Memory.objects.select_related("owner", "project").order_by("created_at", "pk")
        if not embeddings:
            memories = memories.defer("embedding")
        memories = memories.defer("search_vector")
        if project:
            memories = memories.filter(project__slug=project)
        if owner:
            memories = memories.filter(owner__username=owner)
        if state != "all":
            memories = memories.filter(state=state)
        target: Any = output.open("w", encoding="utf-8") if output else self.stdout._out
        count = 0
        try:
            total = memories.count()
            with tqdm(total=total, unit="memory", disable=None if output else True, file=sys.stderr) as bar:
                for line in export_lines(memories.iterator(chunk_size=1000), embeddings=embeddings):
                    target.write(line + "\n")
                    count += 1
                    bar.update(1 if '"type": "memory"' in line else 0)
        finally:
            if output:
                target.close()
        if output:
            self.stderr.write(f"Wrote {count} lines ({total} memories) to {output}.")
