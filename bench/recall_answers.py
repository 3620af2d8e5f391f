"""The same recalls and context packs, written as JSON: for showing that a change to recall's
machinery changes no answer (issue 37, the compiled scope).

    cd bench && python recall_answers.py OUT.jsonl   # on a copy of the seeded 10,000-memory store

Four callers (bench and three others, each a member of different projects) ask questions drawn
from the corpus under every filter recall and the context pack take (none, one kind, two kinds,
a project, a project and a kind, expired included, a valid time, a point in time, a metadata
filter), recall at limits of 10, 15 and 20 (some with superseded versions included), the
context pack at 300 and 1,200 tokens. Each answer is one line of JSON: run it at two commits on
the same store and compare the files byte for byte (``cmp``).
"""

from __future__ import annotations

import json
import os
import random
import sys
from typing import Any

os.environ.setdefault("DJANGO_DEBUG", "false")

from common import setup_django
from corpus import question
from suite import ensure_seeded
from writepath import clone

FILTERS: list[dict[str, Any]] = [
    {},
    {"kinds": ["fact"]},
    {"kinds": ["fact", "decision"]},
    {"project": "team-00"},
    {"project": "team-01", "kinds": ["fact"]},
    {"include_expired": True},
    {"valid_at": "2026-10-01T00:00:00Z"},
    {"as_of": "2026-09-01T00:00:00Z"},
    {"metadata": {"source": "x"}},
]


def main() -> None:
    setup_django(fresh=False)
    clone(ensure_seeded(10_000, False, 100_000))
    from django.contrib.auth.models import User

    from memories.agent import verbs
    from memories.models import Membership

    rng = random.Random(37)
    users = [User.objects.get(username=name) for name in ("bench", "user01", "user05", "user11")]
    count = 0
    with open(sys.argv[1], "w") as out:
        for n in range(14):
            for user in users:
                for filters in FILTERS:
                    text = question(rng)
                    if (
                        "project" in filters
                        and not Membership.objects.filter(user=user, project__slug=filters["project"]).exists()
                    ):
                        continue
                    for verb in ("recall", "context"):
                        arguments: dict[str, Any] = {"query": text, **filters}
                        if verb == "recall":
                            arguments["limit"] = 10 + n % 3 * 5
                            if n % 4 == 1 and "as_of" not in filters:
                                arguments["include_superseded"] = True
                            body = verbs.recall(user=user, arguments=arguments)
                        else:
                            arguments["max_tokens"] = 300 if n % 2 else 1200
                            body = verbs.context(user=user, arguments=arguments)
                        out.write(
                            json.dumps([verb, user.username, arguments, body], sort_keys=True, default=str) + "\n"
                        )
                        count += 1
    print(f"{count} answers written to {sys.argv[1]}")


if __name__ == "__main__":
    main()
