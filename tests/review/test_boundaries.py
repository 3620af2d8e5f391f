"""review builds on memories' public doors: it reads memories through the visibility rule (or
its one named bypass, for the hygiene worker) and retires them through memories' services."""

from __future__ import annotations

import re
from pathlib import Path

import memories
import review

REVIEW = Path(review.__file__).parent
ADMIN_PAGES = [*sorted((Path(memories.__file__).parent / "admin").glob("*.py")), REVIEW / "admin.py"]
# The evaluation harness fills a scratch store in bulk; it reads nothing for anyone.
RAW_READ = re.compile(r"Memory\.(objects|_default_manager)\.(?!bulk_create\b)")
INTERNALS = re.compile(r"^\s*(from|import) memories\.(locks|services\.lifecycle)\b", re.MULTILINE)


def sources() -> list[Path]:
    return [path for path in REVIEW.rglob("*.py") if "migrations" not in path.parts]


def test_review_and_the_admin_pages_read_memories_only_through_the_visibility_rule():
    assert len(ADMIN_PAGES) > 2  # memories' admin is a package: its modules are all read
    offenders = [
        f"{path}:{text[: match.start()].count(chr(10)) + 1}"
        for path in [*sources(), *ADMIN_PAGES]
        for text in [path.read_text()]
        for match in RAW_READ.finditer(text)
    ]
    assert offenders == []


def test_review_never_reaches_into_memories_locks_or_lifecycle_steps():
    assert [str(path) for path in sources() if INTERNALS.search(path.read_text())] == []


def test_the_hygiene_worker_bypasses_visibility_in_one_named_place():
    callers = [path.name for path in sources() if "unrestricted_memories(" in path.read_text()]
    assert callers == ["eligibility.py"]
