"""Sentence vectors: derived data written beside a memory (memories.models.MemorySentence)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction

from memories.models import MemorySentence


def memory_sentences_store(*, vectors_by_memory: Mapping[str, Sequence[list[float]]], replace: bool = False) -> int:
    """Store each memory's sentence vectors (memories.embedding.embed_sentences), in one
    statement; ``replace`` drops the ones stored before (reembed). Returns the rows written.
    No lifecycle event: the vectors are derived from content that never changes."""
    rows = [
        MemorySentence(memory_id=memory_id, position=position, embedding=vector)
        for memory_id, vectors in vectors_by_memory.items()
        for position, vector in enumerate(vectors)
    ]
    if not replace:
        # One statement: atomic as it stands (a write calls this inside its own transaction).
        MemorySentence.objects.bulk_create(rows)
        return len(rows)
    with transaction.atomic():
        MemorySentence.objects.filter(memory_id__in=list(vectors_by_memory)).delete()
        MemorySentence.objects.bulk_create(rows)
    return len(rows)
