"""What read replicas cost the app (memories/platform/replicas.py), in one sitting:

    python bench/replica_routing.py [--rounds 300]

Starts a real streaming replica of the bench database's server (tests/platform/replica.py) and
times, against it and the embedded primary:

* ``remember`` without and with the read-your-writes mark (the UPDATE of the user's tokens after
  the write commits, ``synchronous_commit = off``);
* routing a read (``choose_database``) with the lag measurement cached, and a fresh measurement
  (a short transaction on the replica, paid once per second per process, or when a reader's last
  write is not there yet);
* a recall on the primary and on the replica.

Prints medians in milliseconds; no assertion. On the 2-core development machine, one replica on
the same host (figures vary by a few ms with other load; remember's two columns are interleaved):

| what | median |
| --- | ---: |
| remember | 33.5 ms |
| remember + read-your-writes mark | 33.5 ms |
| the mark alone | 0.76 ms |
| choose_database, measurement cached | 0.009 ms |
| lag measurement (BEGIN, SET LOCAL, SELECT, COMMIT) | 0.20 ms |
| recall on the primary | 33.6 ms |
| recall routed (to the replica) | 29.0 ms |
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.common import BENCH_DATABASE, setup_django


def median_ms(run: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=300)
    rounds = parser.parse_args().rounds

    setup_django(fresh=True)
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connections

    from tests.platform.replica import start_replica, wait_caught_up
    from zeromemory.embedded_db import EmbeddedServer

    primary = EmbeddedServer(settings.DATA_DIR)
    replica = start_replica(primary, Path(tempfile.mkdtemp(prefix="zm-bench-replica-")), BENCH_DATABASE)
    try:
        config = {key: value for key, value in settings.DATABASES["default"].items() if key != "EMBEDDED_DATA_DIR"}
        config.update(ENGINE="django.db.backends.postgresql", HOST="127.0.0.1", PORT=str(replica.server.port))
        settings.DATABASES["replica1"] = config
        connections.settings = connections.configure_settings(settings.DATABASES)

        from memories import services
        from memories.agent import verbs
        from memories.choices import Role
        from memories.models import Project
        from memories.platform import replicas
        from tests.factories import issue_token

        user = User.objects.create(username="bench-replica")
        project = Project.objects.create(slug="acme", name="Acme")
        services.membership_set(actor=None, via="bench", project=project, user=user, role=Role.MEMBER)
        credential, _ = issue_token(user, label="agent")
        counter = iter(range(10**9))

        def remember() -> None:
            services.memory_remember(
                user=user,
                credential=credential,
                content=f"Service svc-{next(counter)} runs on host h-{next(counter)}.",
                kind="fact",
                project_slug="acme",
            )

        def remember_marked() -> None:
            remember()
            replicas._mark(user.pk)

        for _ in range(50):
            remember()
        wait_caught_up(replica, primary.url(BENCH_DATABASE))
        user.read_after_lsn = None  # type: ignore[attr-defined]  # as a token's authentication sets it

        figures = {}
        # A/B back to back, interleaved in blocks so load from elsewhere falls on both.
        plain, marked = [], []
        for _ in range(5):
            plain.append(median_ms(remember, rounds // 5))
            marked.append(median_ms(remember_marked, rounds // 5))
        figures["remember"] = statistics.median(plain)
        figures["remember + read-your-writes mark"] = statistics.median(marked)
        figures["the mark alone"] = median_ms(lambda: replicas._mark(user.pk), rounds)
        replicas.replica_lag(alias="replica1", fresh=True)
        figures["choose_database, measurement cached"] = median_ms(
            lambda: replicas.choose_database(user=user), rounds * 10
        )
        figures["lag measurement (BEGIN, SET LOCAL, SELECT, COMMIT)"] = median_ms(
            lambda: replicas.replica_lag(alias="replica1", fresh=True), rounds
        )
        wait_caught_up(replica, primary.url(BENCH_DATABASE))
        arguments = {"query": "Which host runs svc-40?", "project": "acme"}
        os.environ.setdefault("ZEROMEMORY_PRELOAD_EMBEDDER", "true")
        verbs.recall(user=user, arguments=arguments)
        with replicas._pinned("default"):
            figures["recall on the primary"] = median_ms(lambda: verbs.recall(user=user, arguments=arguments), 50)
        figures["recall routed (replica)"] = median_ms(lambda: verbs.recall(user=user, arguments=arguments), 50)
        assert replicas.choose_database(user=user) == "replica1"
        for name, value in figures.items():
            print(f"{name:45} {value:8.3f} ms")
    finally:
        connections.close_all()
        replica.stop()


if __name__ == "__main__":
    main()
