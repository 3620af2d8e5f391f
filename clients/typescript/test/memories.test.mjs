// The operations on memories, each against the real server: what the client sends (snake_case,
// supersedes as links) and what it gives back (the API's bodies, typed errors).
import assert from "node:assert/strict";
import { test } from "node:test";

import { Forbidden, InvalidRequest, NotFound, StaleTarget, StateConflict, ZeromemoryError } from "@zeromemory/client";

import { all, client, raw } from "./helpers.mjs";

test("remember, recall, get and history follow a declared supersede's version chain", async () => {
  const alice = client();
  const first = await alice.remember("Deploy window is Monday 10:00 UTC.", {
    project: "acme",
    kind: "decision",
    visibility: "project",
    session: "conv-1",
    metadata: { source: "standup" },
    validFrom: new Date("2026-01-01T00:00:00Z"),
  });
  assert.equal(first.status, 201);
  assert.equal(first.absorbed, false);
  assert.deepEqual(first.superseded, []);
  assert.equal(first.memory.content, "Deploy window is Monday 10:00 UTC.");
  assert.equal(first.memory.kind, "decision");
  assert.equal(first.memory.project, "acme");
  assert.equal(first.memory.visibility, "project");
  assert.equal(first.memory.session, "conv-1");
  assert.deepEqual(first.memory.metadata, { source: "standup" });
  assert.equal(first.memory.valid_from, "2026-01-01T00:00:00Z");
  assert.equal(first.memory.state, "live");
  assert.equal(first.memory.owner, "alice");

  const second = await alice.remember("Deploy window is Friday 14:00 UTC.", {
    project: "acme",
    kind: "decision",
    supersedes: [first.memory.id],
  });
  assert.equal(second.status, 201);
  assert.deepEqual(second.superseded, [first.memory.id]);
  assert.deepEqual(second.skipped, []);
  // A write that declared a supersede gets no similar_existing (it needs no hint).
  assert.equal(second.similar_existing, undefined);

  const old = await alice.get(first.memory.id);
  assert.equal(old.state, "superseded");
  assert.equal(old.superseded_by, second.memory.id);
  assert.notEqual(old.invalidated_at, null);

  const history = await alice.history(second.memory.id);
  assert.equal(history.head, second.memory.id);
  assert.deepEqual(
    history.versions.map((memory) => [memory.id, memory.state]),
    [
      [first.memory.id, "superseded"],
      [second.memory.id, "live"],
    ],
  );
  assert.deepEqual(
    history.edges.map((edge) => [edge.src, edge.dst, edge.type, edge.origin, edge.reverted]),
    [[second.memory.id, first.memory.id, "supersedes", "declared", false]],
  );

  const hits = await alice.recall("When is the deploy window?", { project: "acme", limit: 5 });
  assert.deepEqual(
    hits.map((hit) => hit.memory.id),
    [second.memory.id],
  );
  assert.equal(typeof hits[0].score, "number");
  assert.equal(typeof hits[0].distance, "number");
  const both = await alice.recall("When is the deploy window?", { project: "acme", includeSuperseded: true });
  assert.deepEqual(new Set(both.map((hit) => hit.memory.id)), new Set([first.memory.id, second.memory.id]));
});

test("onStale reject is a compare-and-set: StaleTarget names the current version, nothing is stored", async () => {
  const alice = client();
  const a = await alice.remember("The office is at 1 Harbour Street.");
  const b = await alice.remember("The office is at 9 Quay Road.", { supersedes: [a.memory.id] });
  const before = await all(alice.feed({ state: "all" }));

  await assert.rejects(
    alice.remember("The office is at 4 Dock Lane.", { supersedes: [a.memory.id], onStale: "reject" }),
    (error) => {
      assert.ok(error instanceof StaleTarget);
      assert.ok(error instanceof StateConflict);
      assert.ok(error instanceof ZeromemoryError);
      assert.equal(error.status, 409);
      assert.equal(error.code, "stale_target");
      assert.deepEqual(error.current, [{ dst: a.memory.id, current: b.memory.id }]);
      assert.deepEqual(error.body.current, [{ dst: a.memory.id, current: b.memory.id }]);
      return true;
    },
  );
  const after = await all(alice.feed({ state: "all" }));
  assert.deepEqual(
    after.map((memory) => [memory.id, memory.state]),
    before.map((memory) => [memory.id, memory.state]),
  );

  // follow: the write supersedes the chain's current version instead.
  const followed = await alice.remember("The office is at 4 Dock Lane.", {
    supersedes: [a.memory.id],
    onStale: "follow",
  });
  assert.deepEqual(followed.superseded, [b.memory.id]);
  assert.deepEqual(followed.followed, [{ dst: a.memory.id, current: b.memory.id }]);
});

test("a memory that does not exist, or that you may not see, is NotFound", async () => {
  const alice = client();
  await assert.rejects(alice.get("mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T"), (error) => {
    assert.ok(error instanceof NotFound);
    assert.equal(error.status, 404);
    assert.equal(error.code, "not_found");
    assert.equal(error.fields, null);
    return true;
  });
  const secret = await client("bob").remember("Bob's private note.");
  await assert.rejects(alice.history(secret.memory.id), NotFound);
  await assert.rejects(alice.forget(secret.memory.id), NotFound);
  assert.equal((await client("bob").get(secret.memory.id)).state, "live");
});

// The tests of a file share their personas (one server, one set of tokens): each checks its own
// memories, and "nothing changed" against the feed as it stood before.
const snapshot = async (alice) =>
  (await all(alice.feed({ state: "all" }))).map((memory) => [memory.id, memory.state, memory.updated_at]);

test("a refused body is InvalidRequest with the server's fields, and changes nothing", async () => {
  const alice = client();
  const before = await snapshot(alice);
  await assert.rejects(alice.remember("", { kind: "rumour", metadata: { ok: true } }), (error) => {
    assert.ok(error instanceof InvalidRequest);
    assert.equal(error.status, 400);
    assert.equal(error.code, "invalid");
    assert.deepEqual(Object.keys(error.fields).sort(), ["content", "kind"]);
    return true;
  });
  await assert.rejects(alice.recall("anything", { limit: 51 }), (error) => {
    assert.ok(error instanceof InvalidRequest);
    assert.deepEqual(Object.keys(error.fields), ["limit"]);
    return true;
  });
  assert.deepEqual(await snapshot(alice), before);
});

test("forget and restore, with their reasons in the history; another member may not forget", async () => {
  const alice = client();
  const note = await alice.remember("The staging database is db-7.", { project: "acme", visibility: "project" });
  await assert.rejects(client("bob").forget(note.memory.id, { reason: "not mine" }), (error) => {
    assert.ok(error instanceof Forbidden);
    assert.equal(error.code, "forbidden");
    return true;
  });
  assert.equal((await alice.get(note.memory.id)).state, "live");

  const forgotten = await alice.forget(note.memory.id, { reason: "moved to db-9" });
  assert.equal(forgotten.id, note.memory.id);
  assert.equal(forgotten.state, "forgotten");
  assert.equal((await alice.forget(note.memory.id)).state, "forgotten"); // idempotent
  const ids = async () => (await alice.recall("staging database", { limit: 50 })).map((hit) => hit.memory.id);
  assert.equal((await ids()).includes(note.memory.id), false);

  const restored = await alice.restore(note.memory.id, { reason: "it was right" });
  assert.equal(restored.state, "live");
  assert.equal(restored.invalidated_at, null);
  assert.equal((await ids())[0], note.memory.id);
});

test("link records a typed edge, once", async () => {
  const alice = client();
  const plan = await alice.remember("Plan: move CI to the new runners.", { kind: "plan" });
  const task = await alice.remember("Order two more runner machines.", { kind: "task" });
  const link = await alice.link(task.memory.id, plan.memory.id, "depends_on");
  assert.equal(link.src, task.memory.id);
  assert.equal(link.dst, plan.memory.id);
  assert.equal(link.type, "depends_on");
  assert.equal(link.origin, "link");
  assert.equal(link.reverted, false);
  const again = await alice.link(task.memory.id, plan.memory.id, "depends_on");
  assert.equal(again.id, link.id);
  await assert.rejects(alice.link(task.memory.id, plan.memory.id, "blocks"), InvalidRequest);
});

test("whoami names the user, the token and its projects", async () => {
  const me = await client().whoami();
  assert.equal(me.user, "alice");
  assert.equal(me.credential.label, "agent");
  assert.equal(me.credential.provenance, "authoritative");
  assert.deepEqual(me.scope, { projects: null, read_only: false });
  assert.deepEqual(me.projects, [{ slug: "acme", name: "Acme", role: "member" }]);
  assert.equal((await client("dave").whoami()).projects[0].role, "maintainer");
});

test("rememberBatch answers item by item; an atomic batch with a bad item stores nothing", async () => {
  const alice = client();
  const before = await snapshot(alice);
  const results = await alice.rememberBatch([
    { content: "The build cache lives in bucket zm-cache.", project: "acme" },
    { content: "Bad kind here.", kind: "rumour" },
    { content: "Release notes go out on Tuesdays.", kind: "procedure" },
  ]);
  assert.deepEqual(
    results.map((item) => item.status),
    [201, 400, 201],
  );
  assert.equal(results[0].memory.content, "The build cache lives in bucket zm-cache.");
  assert.equal(results[0].memory.project, "acme");
  assert.equal(results[1].error.code, "invalid");
  assert.deepEqual(Object.keys(results[1].error.fields), ["kind"]);
  assert.equal(results[2].memory.kind, "procedure");

  await assert.rejects(
    alice.rememberBatch(
      [
        { content: "Atomic one.", project: "acme" },
        { content: "Atomic two.", kind: "rumour" },
      ],
      { atomic: true },
    ),
    (error) => {
      assert.ok(error instanceof InvalidRequest);
      assert.deepEqual(Object.keys(error.fields), ["items[1].kind"]);
      return true;
    },
  );
  // The first batch's two memories are all that was added.
  const added = (await snapshot(alice)).filter(([id]) => !before.some(([known]) => known === id));
  assert.deepEqual(added.map(([id]) => id).sort(), [results[0].memory.id, results[2].memory.id].sort());
});

test("context packs what is known, with the version it replaced", async () => {
  const alice = client();
  const old = await alice.remember("The on-call rotation changes on Mondays.", { project: "acme" });
  const now = await alice.remember("The on-call rotation changes on Wednesdays.", {
    project: "acme",
    supersedes: [old.memory.id],
  });
  const pack = await alice.context("When does the on-call rotation change?", { maxTokens: 200, project: "acme" });
  assert.ok(pack.tokens > 0 && pack.tokens <= 200, String(pack.tokens));
  assert.equal(typeof pack.left_out, "number");
  assert.deepEqual(
    [pack.items[0].id, pack.items[0].section, pack.items[0].was?.id],
    [now.memory.id, "facts", old.memory.id],
  );
  assert.equal(pack.items.some((item) => item.id === old.memory.id), false);
  assert.match(pack.text, /The on-call rotation changes on Wednesdays\./);
  assert.match(pack.text, /was: The on-call rotation changes on Mondays\./);
  assert.equal(typeof pack.token_counter, "string");
  await assert.rejects(alice.context("x", { maxTokens: 8 }), InvalidRequest);
});

test("the metadata filter narrows recall, context and the feed to memories that contain it", async () => {
  const alice = client();
  const infra = await alice.remember("The metrics cluster runs on three nodes.", {
    metadata: { team: "infra", tags: ["metrics", "ops"] },
  });
  const web = await alice.remember("The metrics dashboard is at /grafana.", { metadata: { team: "web" } });
  const recalled = await alice.recall("metrics", { metadata: { team: "infra" }, limit: 50 });
  assert.deepEqual(
    recalled.map((hit) => hit.memory.id),
    [infra.memory.id],
  );
  const tagged = await alice.recall("metrics", { metadata: { tags: ["ops"] }, limit: 50 });
  assert.deepEqual(
    tagged.map((hit) => hit.memory.id),
    [infra.memory.id],
  );
  const pack = await alice.context("metrics", { maxTokens: 300, metadata: { team: "web" } });
  assert.deepEqual(
    pack.items.map((item) => item.id),
    [web.memory.id],
  );
  assert.deepEqual(
    (await all(alice.feed({ metadata: { team: "web" }, pageSize: 1 }))).map((memory) => memory.id),
    [web.memory.id],
  );
  await assert.rejects(alice.recall("metrics", { metadata: ["infra"] }), (error) => {
    assert.ok(error instanceof InvalidRequest);
    assert.deepEqual(Object.keys(error.fields), ["metadata"]);
    return true;
  });
});
