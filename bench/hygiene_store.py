"""The whole-store evaluation of the hygiene pipeline, end to end (evaluation/).

    .venv/bin/python bench/hygiene_store.py                  # 2,400 writes, the default seed
    .venv/bin/python bench/hygiene_store.py --size 2000 --seed 7 --json-out /tmp/hygiene.json

Writes a synthetic agent's life (one user, ~100 subjects, base facts then updates, paraphrases,
look-alike facts of other subjects, loops and filler) through the real API with one task worker
running, waits for the hygiene queue to drain, and reports against the store's ground truth:

- wrongful retirements: memories retired by a memory that is not a legitimate successor (not a
  cued update or loop outcome of the same slot, nor a same-value restatement), with examples;
- true-update coverage: of the legitimate (older, newer) pairs, the share auto-retired by that
  newer (cued updates, loop outcomes, duplicates);
- the review queue: pending conflicts per 100 writes, and the share about different subjects or
  different attributes (pairs that should never be queued, SPEC R-H7); the decisions a person
  faces (conflict groups per 100 writes) and R-H9's counts (evaluation/queue_shape.py);
- counts and timings (the worker's wall time among them).

The report goes to stdout as text, then as JSON. Needs no DATABASE_URL: it runs on a throwaway
embedded PostgreSQL cluster (or ``--data-dir``); about 5 to 8 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeromemory.settings")

from evaluation.store import DEFAULT_SEED  # noqa: E402 - after the path set-up
from evaluation.whole_store import DEFAULT_ONNX_CACHE, format_report, run_whole_store  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=2400, help="writes in the store (default 2400)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--data-dir", type=Path, default=None, help="an embedded cluster's folder (default: a temporary one)"
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2, as ./zm serve)")
    parser.add_argument(
        "--drain-timeout", type=float, default=900.0, help="seconds to wait for the queue after the writes"
    )
    parser.add_argument(
        "--onnx-cache", type=Path, default=DEFAULT_ONNX_CACHE, help="where the model's ONNX graph is kept between runs"
    )
    parser.add_argument("--json-out", type=Path, default=None, help="also write the JSON result to this file")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args()
    result = run_whole_store(
        size=args.size,
        seed=args.seed,
        data_dir=args.data_dir,
        workers=args.workers,
        drain_timeout=args.drain_timeout,
        onnx_cache=args.onnx_cache,
        progress=not args.quiet,
    )
    print(format_report(result))
    print()
    print(json.dumps(result, indent=2))
    if args.json_out is not None:
        args.json_out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
