"""Does the remember answer's ``hint`` name a predecessor only when there plausibly is one?

    python bench/hint.py [--padding 0] [--split all|tune|holdout] [--sweep]

Loads the labelled store of bench/data/hint_pairs.jsonl (hand-written agent memories: facts
about services, people, customers, deploys, preferences, decisions, tasks; in the project
"acme" or the personal scope) through ``memory_remember`` into a fresh database, optionally
with ``--padding`` generated notes (bench/corpus.py) around it, then writes each probe the way
an agent would, without declaring anything, and rolls it back, so every probe meets the same
store:

* a *rewrite* is a newer version of one stored fact (its value changed); its hint should
  name that fact;
* an *unrelated* write replaces nothing: a new fact about the same subject (another
  attribute), the same attribute of another subject, or a new topic; its hint should name
  no one.

Reports, from the answer's real ``hint``, the share of unrelated writes whose hint names a
``dst``, the share of rewrites whose hint names one, and of those how often it is the true
predecessor. ``--sweep`` also scores candidate rules over the same answers (the list does not
depend on the rule), for choosing a threshold on the ``tune`` half and checking it on the
``holdout`` half (each stored fact, its rewrite and its distractor are in the same half).

The held-out half (90 rewrites, 110 unrelated writes), before and after the hint named its
first entry only when memories.search.likely_predecessor says so (about 30 s; 4 minutes with
``--padding 2000``):

| store | hint | rewrites: names a dst | of which the predecessor | unrelated: names a dst |
| --- | --- | ---: | ---: | ---: |
| 180 labelled memories | always named the first | 100% | 98% | 100% |
| 180 labelled memories | likely_predecessor | 87% | 100% | 18% |
| + 2,000 generated notes | always named the first | 100% | 96% | 100% |
| + 2,000 generated notes | likely_predecessor | 81% | 99% | 14% |

The unrelated writes still named are look-alikes (the same attribute of another subject: "The
VAT rate applied to German customers is 19%." beside the Portuguese rate); no new-topic write is.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from common import setup_django
from corpus import note

DATA = Path(__file__).resolve().parent / "data" / "hint_pairs.jsonl"
DATABASE = "zm_bench_hint"
DST = re.compile(r'"dst": "(mem_[0-9A-Za-z]+)"')


@dataclass
class Probe:
    key: str
    group: str  # "rewrite", or the distractor's type for an unrelated write
    split: str
    truth: str | None  # the predecessor's id, for a rewrite
    listed: list[tuple[str, float, float]]  # (id, score, distance), best first
    named: str | None  # the dst the real hint names


def load(padding: int) -> tuple[Any, dict[str, str], list[dict[str, Any]]]:
    from django.contrib.auth.models import User
    from django.db import connection

    from memories import hooks
    from memories import search as ranking
    from memories.models import Project
    from memories.services import membership_set, memory_remember

    # The hygiene pipeline is not what is measured; its queued checks would only pile up.
    hooks.on_undeclared_write_committed.clear()
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    project = Project.objects.create(slug="acme", name="Acme")
    user = User.objects.create(username="bench")
    membership_set(actor=None, via="bench", project=project, user=user, role="member")

    fillers = []
    rng = random.Random(30)
    for n in range(padding):
        kind, content = note(rng)
        fillers.append({"type": "filler", "kind": kind, "content": content, "project": "acme" if n % 3 else None})
    stored = [row for row in rows if row["type"] == "stored"]
    # The labelled facts among the filler, not all first or last: their age plays no part in
    # the ranking, but a store is written over time.
    everything = fillers + stored
    random.Random(31).shuffle(everything)
    ids: dict[str, str] = {}
    for n, row in enumerate(everything):
        result = memory_remember(
            user=user, credential=None, content=row["content"], kind=row["kind"], project_slug=row["project"]
        )
        if "key" in row:
            if result.absorbed:
                raise SystemExit(f"stored fact {row['key']} was absorbed into another memory")
            ids[row["key"]] = result.memory.pk
        if n % 500 == 499:
            print(f"  stored {n + 1}/{len(everything)}", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    ranking.forget_lexical_stats()
    probes = [row for row in rows if row["type"] in ("rewrite", "unrelated")]
    return user, ids, probes


def run(padding: int) -> list[Probe]:
    from django.db import transaction

    from memories.agent.results import remember_body
    from memories.services import memory_remember

    user, ids, rows = load(padding)
    print(f"store of {len(ids) + padding} memories", flush=True)
    probes = []
    for row in rows:
        with transaction.atomic():
            result = memory_remember(
                user=user, credential=None, content=row["content"], kind=row["kind"], project_slug=row["project"]
            )
            body = remember_body(result)
            # Each probe meets the store as loaded, never the probes before it.
            transaction.set_rollback(True)
        if result.absorbed:
            raise SystemExit(f"probe {row['key']} was absorbed: {row['content']!r}")
        match = DST.search(body.get("hint", ""))
        probes.append(
            Probe(
                key=row["key"],
                group="rewrite" if row["type"] == "rewrite" else row["distractor"],
                split=row["split"],
                truth=ids[row["of"]] if row["type"] == "rewrite" else None,
                listed=[(entry["id"], entry["score"], entry["distance"]) for entry in body["similar_existing"]],
                named=match.group(1) if match else None,
            )
        )
    return probes


Rule = Callable[[list[tuple[str, float, float]]], bool]


def figures(probes: list[Probe], names: Callable[[Probe], str | None]) -> dict[str, float]:
    rewrites = [p for p in probes if p.group == "rewrite"]
    unrelated = [p for p in probes if p.group != "rewrite"]
    named_rewrites = [p for p in rewrites if names(p)]
    out = {
        "unrelated_named": _share([p for p in unrelated if names(p)], unrelated),
        "rewrite_named": _share(named_rewrites, rewrites),
        "named_is_true": _share([p for p in named_rewrites if names(p) == p.truth], named_rewrites),
        "rewrite_named_true": _share([p for p in rewrites if names(p) == p.truth], rewrites),
    }
    for group in ("same-subject", "same-attribute", "new-topic"):
        members = [p for p in unrelated if p.group == group]
        out[group] = _share([p for p in members if names(p)], members)
    return out


def _share(part: list[Probe], whole: list[Probe]) -> float:
    return len(part) / len(whole) if whole else float("nan")


def rule_namer(rule: Rule) -> Callable[[Probe], str | None]:
    return lambda p: p.listed[0][0] if p.listed and rule(p.listed) else None


def within(distance: float) -> Rule:
    return lambda listed: listed[0][2] <= distance


def near_or_standing_out(near: float, far: float, score: float) -> Rule:
    return lambda listed: listed[0][2] <= near or (listed[0][2] <= far and listed[0][1] >= score)


def candidate_rules() -> dict[str, Rule]:
    """The old hint, distance alone, and the server's rule's family at other score bars."""
    from memories import search as ranking

    near, far = ranking.LIKELY_PREDECESSOR_DISTANCE, ranking.LIKELY_PREDECESSOR_FAR_DISTANCE
    rules: dict[str, Rule] = {"always (the old hint)": lambda listed: True}
    for distance in (0.30, 0.35, 0.40, 0.45):
        rules[f"distance <= {distance:.2f}"] = within(distance)
    for score in (2.5, 3.0, 3.5, 4.0):
        rules[f"distance <= {near:.2f}, or <= {far:.2f} and score >= {score:.1f}"] = near_or_standing_out(
            near, far, score
        )
    return rules


HEADER = (
    "| rule | rewrites: hint names a dst | named dst is the predecessor | rewrites: names the predecessor "
    "| unrelated: hint names a dst | same subject | same attribute | new topic |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def row(name: str, found: dict[str, float]) -> str:
    cells = [
        found["rewrite_named"],
        found["named_is_true"],
        found["rewrite_named_true"],
        found["unrelated_named"],
        found["same-subject"],
        found["same-attribute"],
        found["new-topic"],
    ]
    return f"| {name} | " + " | ".join(f"{cell:.0%}" for cell in cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--padding", type=int, default=0, help="generated notes stored around the labelled ones")
    parser.add_argument("--split", choices=("all", "tune", "holdout"), default="all")
    parser.add_argument("--sweep", action="store_true", help="also score candidate rules on the same answers")
    parser.add_argument("--dump", default="", help="write each probe's list and hint to this JSON file")
    args = parser.parse_args()
    setup_django(fresh=True, database=DATABASE)

    probes = run(args.padding)
    if args.dump:
        Path(args.dump).write_text(json.dumps([p.__dict__ for p in probes], indent=1))
    splits = ("tune", "holdout") if args.split == "all" else (args.split,)
    for split in splits:
        chosen = [p for p in probes if p.split == split]
        rewrites = [p for p in chosen if p.group == "rewrite"]
        top = _share([p for p in rewrites if p.listed and p.listed[0][0] == p.truth], rewrites)
        print(
            f"\n{split} half: {len(rewrites)} rewrites, {len(chosen) - len(rewrites)} unrelated writes; "
            f"the predecessor is listed first for {top:.0%} of rewrites\n"
        )
        print(HEADER)
        print(row("the server's hint", figures(chosen, lambda p: p.named)))
        if args.sweep:
            for name, rule in candidate_rules().items():
                print(row(name, figures(chosen, rule_namer(rule))))


if __name__ == "__main__":
    main()
