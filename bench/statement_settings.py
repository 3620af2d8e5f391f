"""What sending settings with a statement costs (memories.statement_settings), direct and through
a transaction-mode PgBouncer: per statement, the settings on the connection (startup options, the
old way: nothing per statement), in the statement's own message (``SELECT set_config(…, true);
<statement>``, the way chosen) and in a transaction of their own (BEGIN; SET LOCAL …; statement;
COMMIT). Rounds interleaved, so the three share the machine's load.

    .venv/bin/python bench/statement_settings.py [--rounds 5] [--statements 2000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.platform.helpers import free_port
from tests.platform.pgbouncer import pgbouncer
from zeromemory.embedded_db import EmbeddedServer

STATEMENT = "SELECT 1"
SETTINGS = "SELECT set_config('hnsw.ef_search', '400', true), set_config('hnsw.iterative_scan', 'strict_order', true); "


def _on_connection(conn: psycopg.Connection) -> None:
    conn.execute(STATEMENT).fetchall()


def _in_message(conn: psycopg.Connection) -> None:
    cursor = psycopg.ClientCursor(conn)
    cursor.execute(SETTINGS + STATEMENT)
    cursor.nextset()
    cursor.fetchall()


def _own_transaction(conn: psycopg.Connection) -> None:
    with conn.transaction():
        conn.execute("SET LOCAL hnsw.ef_search = 400")
        conn.execute("SET LOCAL hnsw.iterative_scan = strict_order")
        conn.execute(STATEMENT).fetchall()


def _time(conn: psycopg.Connection, way: object, statements: int) -> float:
    started = time.perf_counter()
    for _ in range(statements):
        way(conn)  # type: ignore[operator]
    return (time.perf_counter() - started) / statements * 1e6


def _measure(label: str, url: str, options: str | None, rounds: int, statements: int) -> None:
    ways = {"on the connection": _on_connection, "in the message": _in_message, "own transaction": _own_transaction}
    figures: dict[str, list[float]] = {name: [] for name in ways}
    kwargs: dict[str, Any] = {"options": options} if options else {}
    with psycopg.connect(url, autocommit=True, prepare_threshold=None, **kwargs) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute("SELECT '[1]'::vector").fetchall()  # loads pgvector: its settings exist
        for _ in range(rounds):
            for name, way in ways.items():
                figures[name].append(_time(conn, way, statements))
    for name, values in figures.items():
        print(f"{label:<14} {name:<18} {statistics.median(values):7.1f} µs per statement (median of {rounds})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--statements", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedServer(Path(folder), port=free_port())
        server.acquire("zm_bench")
        try:
            _measure("direct", server.url("zm_bench"), "-c hnsw.ef_search=400", args.rounds, args.statements)
            with pgbouncer(server, "zm_bench") as bouncer:
                _measure("PgBouncer", bouncer.url("zm_bench"), None, args.rounds, args.statements)
        finally:
            server.destroy()


if __name__ == "__main__":
    main()
