// Retries of safe failures, through a real TCP proxy that loses answers and refuses requests.
// A write is retried with the one Idempotency-Key of its call, so the server stores it once and
// replays its answer; a call without a key is sent again only when it certainly did not act.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Client,
  IdempotencyKeyReused,
  RateLimited,
  StateConflict,
  TransportError,
  Unavailable,
} from "@zeromemory/client";

import { all, client, raw, TOKENS } from "./helpers.mjs";
import { freePort, startProxy } from "./proxy.mjs";

const UPSTREAM = process.env.ZEROMEMORY_URL;
const through = (proxy, options = {}) =>
  new Client({ baseUrl: proxy.url, token: TOKENS.alice, backoffMs: 50, ...options });

async function withProxy(behaviours, body, options) {
  const proxy = await startProxy(UPSTREAM, behaviours, options);
  try {
    return await body(proxy);
  } finally {
    await proxy.close();
  }
}

const contents = async () => (await all(client().feed({ state: "all" }))).map((memory) => memory.content);

test("a remember whose answer is lost is retried with the same key and stored once", async () => {
  await withProxy(["drop-answer"], async (proxy) => {
    const result = await through(proxy).remember("Retried write: the VPN gateway is vpn-2.", { project: "acme" });
    // The first attempt's answer, replayed: a second attempt under a new key would have been
    // absorbed into the stored memory (the same text in the same session, R-D1) and answered 200.
    assert.equal(result.status, 201);
    assert.equal(result.absorbed, false);
    assert.equal(proxy.connections.length, 2);
    assert.deepEqual(
      proxy.connections.map((seen) => [seen.behaviour, seen.forwarded]),
      [
        ["drop-answer", true],
        ["forward", true],
      ],
    );
    const [first, second] = proxy.connections.map((seen) => seen.headers["idempotency-key"]);
    assert.match(first, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(second, first);
    // Exactly one memory, the one the replayed answer names.
    const stored = (await contents()).filter((text) => text === "Retried write: the VPN gateway is vpn-2.");
    assert.equal(stored.length, 1);
    assert.equal((await client().get(result.memory.id)).content, "Retried write: the VPN gateway is vpn-2.");
  });
});

test("each logical call has its own key, the same on each of its attempts", async () => {
  const first = await withProxy(["refuse-503"], (proxy) => through(proxy).remember("Key three.").then(() => proxy));
  const second = await withProxy(["refuse-503"], (proxy) => through(proxy).remember("Key four.").then(() => proxy));
  const [a, b] = [first, second].map((proxy) => proxy.connections.map((seen) => seen.headers["idempotency-key"]));
  assert.equal(a[0], a[1]);
  assert.equal(b[0], b[1]);
  assert.notEqual(a[0], b[0]);
});

test("a caller's own Idempotency-Key: a repeat replays the first answer, another body is refused", async () => {
  const alice = client();
  const key = `caller-key-${Date.now()}`;
  const first = await alice.remember("Own key: the backup runs at 02:00.", { idempotencyKey: key });
  const again = await alice.remember("Own key: the backup runs at 02:00.", { idempotencyKey: key });
  assert.deepEqual([again.status, again.absorbed, again.memory.id], [201, false, first.memory.id]);
  await assert.rejects(alice.remember("Own key: another text.", { idempotencyKey: key }), (error) => {
    assert.ok(error instanceof IdempotencyKeyReused);
    assert.equal(error.status, 422);
    return true;
  });
  assert.equal((await contents()).filter((text) => text.startsWith("Own key:")).length, 1);
});

test("a batch whose answer is lost is retried and stored once", async () => {
  await withProxy(["drop-answer"], async (proxy) => {
    const results = await through(proxy).rememberBatch([
      { content: "Batch retry: the wiki moved to wiki.example.org." },
      { content: "Batch retry: builds take nine minutes." },
    ]);
    // Replayed, not absorbed (200) as a second run of the batch would have been.
    assert.deepEqual(
      results.map((item) => item.status),
      [201, 201],
    );
    assert.equal(proxy.connections.length, 2);
    assert.equal(proxy.connections[1].headers["idempotency-key"], proxy.connections[0].headers["idempotency-key"]);
    const stored = (await contents()).filter((text) => text.startsWith("Batch retry:"));
    assert.deepEqual(stored.sort(), ["Batch retry: builds take nine minutes.", "Batch retry: the wiki moved to wiki.example.org."]);
  });
});

test("a write told its first attempt still runs (409 idempotency_in_progress) waits and asks again", async () => {
  await withProxy(["in-progress"], async (proxy) => {
    const result = await through(proxy).remember("In progress: the cafeteria closes at 15:00.");
    assert.equal(result.status, 201);
    assert.deepEqual(
      proxy.connections.map((seen) => [seen.behaviour, seen.forwarded]),
      [
        ["in-progress", false],
        ["forward", true],
      ],
    );
    assert.equal(proxy.connections[1].headers["idempotency-key"], proxy.connections[0].headers["idempotency-key"]);
  });
  // Without a key (link), a 409 is the call's answer: thrown, not retried.
  const alice = client();
  const a = await alice.remember("In progress link source.");
  const b = await alice.remember("In progress link target.");
  await withProxy(["in-progress"], async (proxy) => {
    await assert.rejects(through(proxy).link(a.memory.id, b.memory.id, "relates_to"), StateConflict);
    assert.equal(proxy.connections.length, 1);
  });
});

test("a 429 waits for Retry-After, then goes again", async () => {
  await withProxy(["refuse-429"], async (proxy) => {
    const started = Date.now();
    const result = await through(proxy).remember("After the rate limit: lunch is at noon.");
    const waited = Date.now() - started;
    assert.ok(waited >= 950, `retried after ${waited} ms, before the 1 s Retry-After`);
    assert.equal(result.status, 201);
    assert.deepEqual(
      proxy.connections.map((seen) => [seen.behaviour, seen.forwarded]),
      [
        ["refuse-429", false],
        ["forward", true],
      ],
    );
  });
  // A wait longer than the client accepts is not waited for: RateLimited at once, with the wait.
  await withProxy(
    ["refuse-429"],
    async (proxy) => {
      await assert.rejects(through(proxy, { maxRetryAfterMs: 5000 }).whoami(), (error) => {
        assert.ok(error instanceof RateLimited);
        assert.equal(error.status, 429);
        assert.equal(error.code, "rate_limited");
        assert.equal(error.retryAfter, 60);
        return true;
      });
      assert.equal(proxy.connections.length, 1);
    },
    { retryAfter: "60" },
  );
});

test("503 is retried up to maxAttempts, then thrown as Unavailable", async () => {
  await withProxy(["refuse-503", "refuse-503"], async (proxy) => {
    const me = await through(proxy).whoami();
    assert.equal(me.user, "alice");
    assert.equal(proxy.connections.length, 3);
  });
  await withProxy(["refuse-503", "refuse-503", "refuse-503"], async (proxy) => {
    await assert.rejects(through(proxy, { maxAttempts: 3 }).whoami(), (error) => {
      assert.ok(error instanceof Unavailable);
      assert.equal(error.status, 503);
      assert.equal(error.code, "database_unavailable");
      return true;
    });
    assert.equal(proxy.connections.length, 3);
  });
});

test("a link whose answer is lost is not sent again (it may have acted): TransportError", async () => {
  const alice = client();
  const a = await alice.remember("Link source: the payments service.");
  const b = await alice.remember("Link target: the ledger database.");
  await withProxy(["drop-answer"], async (proxy) => {
    await assert.rejects(through(proxy).link(a.memory.id, b.memory.id, "depends_on"), (error) => {
      assert.ok(error instanceof TransportError);
      assert.equal(error.status, 0);
      assert.equal(error.code, "transport_error");
      assert.ok(error.cause instanceof Error);
      return true;
    });
    assert.equal(proxy.connections.length, 1);
  });
  // It had acted: the link exists (asking again answers 200, the existing link).
  const again = await raw("POST", "links/", "alice", { src: a.memory.id, dst: b.memory.id, type: "depends_on" });
  assert.equal(again.status, 200);
});

test("a link or a resolve that was refused (503), or never connected, is sent again", async () => {
  const alice = client();
  const a = await alice.remember("Retry link source: the mobile app.");
  const b = await alice.remember("Retry link target: the push service.");
  await withProxy(["refuse-503"], async (proxy) => {
    const link = await through(proxy).link(a.memory.id, b.memory.id, "depends_on");
    assert.equal(link.type, "depends_on");
    assert.equal(proxy.connections.length, 2);
  });

  // A fork (two writes superseding one version) opens a conflict; its resolve is refused once.
  const target = await alice.remember("Retry resolve: standup is at 09:00.");
  await alice.remember("Retry resolve: standup is at 09:30.", { supersedes: [target.memory.id] });
  await alice.remember("Retry resolve: standup is at 10:00.", { supersedes: [target.memory.id] });
  const [conflict] = (await all(alice.conflicts())).filter((item) => item.stale_version === target.memory.id);
  await withProxy(["refuse-503"], async (proxy) => {
    const resolved = await through(proxy).resolveConflict(conflict.id, "keep_both");
    assert.deepEqual([resolved.id, resolved.status, resolved.resolution], [conflict.id, "resolved", "keep_both"]);
    assert.deepEqual(
      proxy.connections.map((seen) => [seen.behaviour, seen.forwarded]),
      [
        ["refuse-503", false],
        ["forward", true],
      ],
    );
  });

  // Connection refused: nothing listens on the port until the first attempt has failed (the
  // fetch given to the client starts the proxy then), and the retry reaches the server.
  const port = await freePort();
  const attempts = [];
  let proxy;
  const watched = async (url, init) => {
    try {
      return await fetch(url, init);
    } catch (failure) {
      attempts.push(failure.cause?.code);
      proxy ??= await startProxy(UPSTREAM, [], { port });
      throw failure;
    }
  };
  const refused = new Client({ baseUrl: `http://127.0.0.1:${port}`, token: TOKENS.alice, backoffMs: 50, fetch: watched });
  try {
    const link = await refused.link(a.memory.id, b.memory.id, "relates_to");
    assert.equal(link.type, "relates_to");
    assert.deepEqual(attempts, ["ECONNREFUSED"]);
    assert.equal(proxy.connections.length, 1);
  } finally {
    await proxy?.close();
  }
});

test("a read whose answers are all lost fails with TransportError after maxAttempts", async () => {
  const note = await client().remember("Lost reads: the printer is on floor 2.");
  await withProxy(["drop-answer", "drop-answer"], async (proxy) => {
    await assert.rejects(through(proxy, { maxAttempts: 2 }).get(note.memory.id), TransportError);
    assert.equal(proxy.connections.length, 2);
  });
  await withProxy(["drop-answer"], async (proxy) => {
    assert.equal((await through(proxy).get(note.memory.id)).id, note.memory.id);
    assert.equal(proxy.connections.length, 2);
  });
});
