"""What the retention's pruning costs (memories.platform.retention), and its plans.

    python bench/retention_prune.py [--rows 200000] [--repeat 2]

Seeds a bench database with ``--rows`` task results (99 in 100 finished, one every 10 s back in
time, so about seven in ten are past the 7 days) and ``--rows`` webhook deliveries (most
delivered, one every 20 s back; one in 50 dead, one in 97 pending), by SQL. Prints the plan of
one batch per rule (EXPLAIN), then prunes everything due, back to back on the same seed, alternating:
with the batch deleting by ``key IN (SELECT ...)`` (the first version) and by ``key = ANY
(ARRAY(...))`` (today's). Prints the rows deleted and the seconds each took, and the cost of a
prune with nothing due.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import setup_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=2, help="each variant this many times, alternating")
    args = parser.parse_args()
    setup_django(fresh=True, database="zeromemory_bench_retention")

    from django.contrib.auth.models import User
    from django.db import connection

    from memories import services
    from memories.models import Project, WebhookEndpoint
    from memories.platform import retention

    rows = args.rows
    user = User.objects.create(username="bench")
    project = Project.objects.create(slug="bench", name="Bench")
    memory = services.memory_remember(
        user=user, credential=None, content=f"The bench memory {uuid.uuid4()}.", kind="fact"
    ).memory
    endpoint = WebhookEndpoint.objects.create(project=project, url="http://127.0.0.1:9/bench", active=False)

    def seed() -> None:
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE django_tasks_database_dbtaskresult, memories_webhookattempt")
            cursor.execute("DELETE FROM memories_webhookdelivery")
            cursor.execute(
                """INSERT INTO django_tasks_database_dbtaskresult
                   (id, status, enqueued_at, started_at, finished_at, args_kwargs, priority, task_path, worker_ids,
                    queue_name, backend_name, run_after, return_value, exception_class_path, traceback)
                   SELECT gen_random_uuid(), CASE WHEN g %% 100 = 0 THEN 'READY' ELSE 'SUCCESSFUL' END,
                          now() - g * interval '10 second', now() - g * interval '10 second',
                          CASE WHEN g %% 100 = 0 THEN NULL ELSE now() - g * interval '10 second' END,
                          '{}', 0, 'review.tasks.hygiene_check_task', '[]', 'default', 'default', now(), NULL, '', ''
                     FROM generate_series(1, %s) g""",
                [rows],
            )
            cursor.execute(
                """INSERT INTO memories_webhookdelivery (endpoint_id, event_id, state, attempts, next_attempt_at,
                   last_attempt_at, last_status, last_error, delivered_at, created_at)
                   SELECT %(endpoint)s, e.id,
                          CASE WHEN n %% 50 = 0 THEN 'dead' WHEN n %% 97 = 0 THEN 'pending' ELSE 'delivered' END, 1,
                          now() - n * interval '20 second', now() - n * interval '20 second', 200, '',
                          CASE WHEN n %% 50 = 0 OR n %% 97 = 0 THEN NULL ELSE now() - n * interval '20 second' END,
                          now()
                     FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM memories_feedevent
                            WHERE memory_id = %(memory)s) e""",
                {"endpoint": endpoint.pk, "memory": memory.pk},
            )
            cursor.execute("ANALYZE django_tasks_database_dbtaskresult")
            cursor.execute("ANALYZE memories_webhookdelivery")

    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO memories_feedevent (type, memory_id, data, created_at)"
            " SELECT 'memory.created', %s, '{}', now() FROM generate_series(1, %s)",
            [memory.pk, rows],
        )
    seed()
    with connection.cursor() as cursor:
        for rule in retention.RULES[:3]:
            cursor.execute("EXPLAIN " + retention._batch_sql(rule), {"keep": rule.keep_seconds(), "batch": 1000})
            print(f"-- {rule.name}")
            print("\n".join(row[0] for row in cursor.fetchall()))

    original = retention._batch_sql

    def by_semi_join(rule: retention.Rule) -> str:
        sql = original(rule)
        key_in = f"{rule.key} = ANY (ARRAY(SELECT {rule.key} FROM doomed))"
        return sql.replace(key_in, f"{rule.key} IN (SELECT {rule.key} FROM doomed)").replace(
            "delivery_id = ANY (ARRAY(SELECT id FROM doomed))", "delivery_id IN (SELECT id FROM doomed)"
        )

    with connection.cursor() as cursor:
        for rule in retention.RULES[:2]:
            cursor.execute("EXPLAIN " + by_semi_join(rule), {"keep": rule.keep_seconds(), "batch": 1000})
            print(f"-- {rule.name}, by key IN (SELECT ...)")
            print("\n".join(row[0] for row in cursor.fetchall()))

    variants = (("key IN (SELECT ...)", by_semi_join), ("key = ANY (ARRAY(...))", original))
    for label, batch_sql in variants * args.repeat:
        seed()
        retention._batch_sql = batch_sql
        started = time.monotonic()
        done = retention.retention_prune()
        took = time.monotonic() - started
        print(
            f"{label}: tasks={done['finished tasks']} delivered={done['delivered webhooks']}"
            f" dead={done['dead webhooks']} in {took:.2f} s"
        )
    retention._batch_sql = original
    started = time.monotonic()
    for _ in range(20):
        retention.retention_prune()
    print(f"a prune with nothing due: {(time.monotonic() - started) / 20 * 1000:.1f} ms")


if __name__ == "__main__":
    main()
