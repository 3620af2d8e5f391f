from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from tqdm import tqdm

from memories.choices import State
from review.eligibility import hygiene_memories
from review.forks import forks_open_unaccounted
from review.models import Judgment
from review.sweep import sweep


class Command(BaseCommand):
    help = (
        "Sweep a backlog through the hygiene pipeline: judge every live memory that has not been "
        "judged yet against its neighbours, oldest first, with a progress bar. Each scope (owner, "
        "project) is read once and its verdicts are written in batches, each committing on its own; "
        "pairs are never judged twice, so the sweep is safe to interrupt and run again; it picks up "
        "where it stopped. First it opens a conflict for every fork of a version chain (two live "
        "versions of one fact, SPEC R-S12) that no conflict names yet."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--owner", help="Only this user's memories (username).")
        parser.add_argument("--project", help="Only this project's memories (slug).")
        parser.add_argument("--batch-size", type=int, default=500, help="Memories per committed batch.")
        parser.add_argument("--all", action="store_true", help="Also memories judged before (new neighbours).")

    def handle(
        self, *args: Any, owner: str | None, project: str | None, batch_size: int, all: bool, **options: Any
    ) -> None:
        # Forks first: their conflicts are certain (no judge), and a pair already in the queue is
        # not queued again by the judge below (R-H9).
        with transaction.atomic():
            forks = forks_open_unaccounted()
        backlog = hygiene_memories().filter(state=State.LIVE)
        if owner:
            backlog = backlog.filter(owner__username=owner)
        if project:
            backlog = backlog.filter(project__slug=project)
        if not all:
            judged = Judgment.objects.filter(Q(older=OuterRef("pk")) | Q(newer=OuterRef("pk")))
            backlog = backlog.exclude(Exists(judged))
        rows = list(backlog.order_by("created_at", "pk").values_list("pk", "owner_id", "project_id"))
        with tqdm(total=len(rows), unit="memory", disable=None, file=self.stderr._out) as progress:
            result = sweep(rows, batch_size=batch_size, progress=progress.update)
        self.stdout.write(f"Swept {result.memories} memories; {result.judgments} new judgments.")
        for fork in forks:
            self.stdout.write(f"fork of {fork.stale}: opened a conflict between {fork.older} and {fork.newer}")
        if forks:
            self.stdout.write(f"Opened {len(forks)} conflict(s) for forks of a version chain.")
