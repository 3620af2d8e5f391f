"""memories.statement_settings: settings sent in a statement's own message, local to its
transaction (what a transaction-mode pooler keeps), without disturbing what the statement
answers."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from memories.models import Memory
from memories.statement_settings import statement_settings
from tests.conftest import Persona
from tests.factories import make_memory


def _setting(name: str) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting(%s, true)", [name])
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_setting_holds_for_the_statements_inside_and_ends_with_each_of_them() -> None:
    before = _setting("work_mem")
    with statement_settings({"work_mem": "7MB"}):
        inside = _setting("work_mem")
    after = _setting("work_mem")

    assert before == "4MB"
    assert inside == "7MB"
    assert after == "4MB"  # autocommit: it ended with the statement's implicit transaction


@pytest.mark.django_db(transaction=True)
def test_statements_under_a_setting_answer_as_without_it(alice: Persona) -> None:
    kept = make_memory(alice.user, "Kept under a setting.")
    with statement_settings({"statement_timeout": "5s"}):
        created = Memory.objects.filter(pk=kept.pk).values_list("content", flat=True)
        content = list(created)
        changed = Memory.objects.filter(owner=alice.user).update(metadata={"under": "a setting"})
        unchanged = Memory.objects.filter(pk="no such id").update(metadata={"under": "a setting"})
        count = Memory.objects.count()

    assert content == ["Kept under a setting."]
    assert changed == 1
    assert unchanged == 0
    assert count == 1
    assert Memory.objects.get(pk=kept.pk).metadata == {"under": "a setting"}


@pytest.mark.django_db(transaction=True)
def test_a_failed_statement_inside_a_transaction_rolls_back_to_its_savepoint(alice: Persona) -> None:
    memory = make_memory(alice.user, "The original row.")
    with statement_settings({"statement_timeout": "5s"}), transaction.atomic():
        try:
            with transaction.atomic():  # a savepoint, rolled back by ROLLBACK TO (not prefixed)
                Memory.objects.create(**{f.attname: getattr(memory, f.attname) for f in Memory._meta.concrete_fields})
        except IntegrityError:
            pass
        after = Memory.objects.filter(pk=memory.pk).count()

    assert after == 1


def test_only_plain_names_and_values_are_written_into_the_sql() -> None:
    injected = {"work_mem": "1MB'; DROP TABLE x; --"}
    with pytest.raises(ValueError, match="not a plain setting"), statement_settings(injected):
        pass
