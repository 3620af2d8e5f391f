from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from tqdm import tqdm

from memories.embedding import Embedder, build_embedder, embed_sentences
from memories.models import Memory
from memories.services import memory_sentences_store
from memories.text import sentences


class Command(BaseCommand):
    help = (
        "Re-embed every memory with another sentence-transformers model (--model: a local folder "
        "or an installed model; nothing is downloaded), in batches, with a progress bar. Each "
        "batch is its own short transaction, so reads and writes go on meanwhile, and every "
        "memory records the model that embedded it, so an interrupted run resumes where it "
        "stopped: run it again. Point the server at the same model (ZEROMEMORY_EMBEDDING_MODEL) "
        "and run reembed once more to catch memories written in between. A model of another "
        "dimension needs a new database: see README, 'Changing the embedding model'. A run that "
        "leaves nothing to do also gives sentence vectors to memories of several sentences stored "
        "without them (bulk loads, or stores from before they existed): run it with the current "
        "model for just that."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--model",
            default=None,
            help="Local sentence-transformers folder or installed model (default: the one the server runs, "
            "ZEROMEMORY_EMBEDDING_MODEL: then only sentence vectors missing are added).",
        )
        parser.add_argument("--batch-size", type=int, default=256)
        parser.add_argument("--limit", type=int, help="Stop after this many memories (for a trial run).")

    def handle(self, *args: Any, model: str | None, batch_size: int, limit: int | None, **options: Any) -> None:
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1.")
        embedder = build_embedder(settings.EMBEDDING_MODEL if model is None else model, settings.EMBEDDING_DEVICE)
        if embedder.dimensions != settings.EMBEDDING_DIMENSIONS:
            raise CommandError(
                f"{model} gives {embedder.dimensions}-dimension vectors; this database stores "
                f"{settings.EMBEDDING_DIMENSIONS}. Move to a new database instead: export_memories, then "
                f"import_memories into a deployment created with ZEROMEMORY_EMBEDDING_DIMENSIONS="
                f"{embedder.dimensions} and ZEROMEMORY_EMBEDDING_MODEL={model} (README, 'Changing the "
                "embedding model')."
            )
        pending = Memory.objects.exclude(embedding_model=embedder.name)
        total = pending.count() if limit is None else min(limit, pending.count())
        done = 0
        with tqdm(total=total, unit="memory", disable=None, file=self.stderr._out) as progress:
            while done < total:
                batch = list(pending.order_by("pk").values_list("pk", "content")[: min(batch_size, total - done)])
                if not batch:
                    break
                vectors = embedder.embed([content for _, content in batch])
                sentence_sets = embed_sentences([content for _, content in batch], embedder)
                with transaction.atomic():
                    for (pk, _), vector in zip(batch, vectors, strict=True):
                        Memory.objects.filter(pk=pk).update(embedding=vector, embedding_model=embedder.name)
                    memory_sentences_store(
                        vectors_by_memory={pk: found for (pk, _), found in zip(batch, sentence_sets, strict=True)},
                        replace=True,
                    )
                done += len(batch)
                progress.update(len(batch))
        left = Memory.objects.exclude(embedding_model=embedder.name).count()
        self.stdout.write(f"Re-embedded {done} memories with {embedder.name}; {left} left to do.")
        if left == 0 and limit is None:
            added = self._backfill_sentences(embedder, batch_size)
            self.stdout.write(f"Sentence vectors added for {added} memories of several sentences stored without them.")

    def _backfill_sentences(self, embedder: Embedder, batch_size: int) -> int:
        """Memories stored before sentence vectors existed (or bulk-loaded) get theirs."""
        added = 0
        missing = Memory.objects.filter(sentence_vectors__isnull=True).order_by("pk")
        after = ""
        with tqdm(total=missing.count(), unit="memory", disable=None, file=self.stderr._out) as progress:
            while True:
                batch = list(missing.filter(pk__gt=after).values_list("pk", "content")[:batch_size])
                if not batch:
                    break
                after = batch[-1][0]
                several = [(pk, content) for pk, content in batch if sentences(content)]
                found = embed_sentences([content for _, content in several], embedder)
                memory_sentences_store(
                    vectors_by_memory={pk: vectors for (pk, _), vectors in zip(several, found, strict=True)}
                )
                added += len(several)
                progress.update(len(batch))
        return added
