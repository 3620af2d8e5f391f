// The lists follow the server's cursor: the feed and the conflict queue until `next` is null, the
// events until `has_more` is false (their `next` is always there, for polling).
import assert from "node:assert/strict";
import { test } from "node:test";

import { StateConflict } from "@zeromemory/client";

import { all, client, raw } from "./helpers.mjs";

test("feed iterates every page, newest first, with its filters", async () => {
  const alice = client();
  const written = [];
  for (const n of [1, 2, 3, 4, 5]) {
    written.push((await alice.remember(`Feed note number ${n} about llamas.`, { project: "acme" })).memory.id);
  }
  await alice.remember("A personal note that is not in acme.");
  const first = await alice.feedPage({ project: "acme", pageSize: 2 });
  assert.equal(first.results.length, 2);
  assert.match(first.next, /cursor=/);

  const listed = await all(alice.feed({ project: "acme", pageSize: 2 }));
  assert.deepEqual(
    listed.map((memory) => memory.id),
    [...written].reverse(),
  );
  assert.deepEqual(
    (await all(alice.feed({ project: "acme", q: "number 3", pageSize: 1 }))).map((memory) => memory.id),
    [written[2]],
  );
  await alice.forget(written[0]);
  assert.deepEqual(
    (await all(alice.feed({ state: "forgotten", pageSize: 1 }))).map((memory) => memory.id),
    [written[0]],
  );
});

test("events iterate page after page until has_more is false, and the last next polls on", async () => {
  const alice = client();
  // Where the events stand now (earlier tests of this file wrote some): read to the end.
  let start = await alice.eventsPage({ pageSize: 200 });
  while (start.has_more) start = await alice.eventsPage({ cursor: start.next, pageSize: 200 });
  const since = start.next;
  const ids = [];
  for (const n of [1, 2, 3]) ids.push((await alice.remember(`Event note ${n} about alpacas.`)).memory.id);
  const next = await alice.remember("Event note 4 about alpacas, the successor.", { supersedes: [ids[0]] });

  const events = await all(alice.events({ cursor: since, pageSize: 2 }));
  assert.deepEqual(
    events.map((event) => [event.type, event.memory]),
    [
      ["memory.created", ids[0]],
      ["memory.created", ids[1]],
      ["memory.created", ids[2]],
      ["memory.created", next.memory.id],
      ["memory.superseded", ids[0]],
    ],
  );
  assert.equal(events[4].data.successor, next.memory.id);
  assert.match(events[0].id, /^evt_\d+$/);

  const only = await all(alice.events({ since: events[0].created_at, type: ["memory.superseded"], pageSize: 1 }));
  assert.deepEqual(
    only.map((event) => event.memory),
    [ids[0]],
  );

  // Polling: read to the end, keep next; a new write is what the kept next reads.
  let page = await alice.eventsPage({ cursor: since, pageSize: 50 });
  assert.equal(page.has_more, false);
  assert.equal(page.results.length, 5);
  const idle = await alice.eventsPage({ cursor: page.next });
  assert.deepEqual(idle.results, []);
  assert.equal(idle.has_more, false);
  assert.equal(typeof idle.next, "string");
  await alice.forget(ids[1], { reason: "no longer true" });
  page = await alice.eventsPage({ cursor: idle.next });
  assert.deepEqual(
    page.results.map((event) => [event.type, event.memory, event.data.reason]),
    [["memory.forgotten", ids[1], "no longer true"]],
  );
});

test("two writers superseding one version fork it; the conflict is listed and resolved", async () => {
  const alice = client();
  const dave = client("dave");
  const target = await alice.remember("The release branch is cut on day 1 of the sprint.", {
    project: "acme",
    visibility: "project",
  });
  // Both writers read the same version; alice's replacement lands first.
  const mine = await alice.remember("The release branch is cut on day 3 of the sprint.", {
    project: "acme",
    visibility: "project",
    supersedes: [target.memory.id],
  });
  const theirs = await dave.remember("The release branch is cut on day 5 of the sprint.", {
    project: "acme",
    visibility: "project",
    supersedes: [target.memory.id],
    onStale: "skip",
  });
  assert.deepEqual(theirs.superseded, []);
  assert.deepEqual(theirs.skipped, [{ dst: target.memory.id, reason: "dead", current: mine.memory.id }]);

  // dave maintains acme, so he may retire both sides: the queue is his.
  const pending = await all(dave.conflicts());
  assert.equal(pending.length, 1);
  const [conflict] = pending;
  assert.equal(conflict.status, "pending");
  assert.equal(conflict.relation, "contradicts");
  assert.equal(conflict.confidence, 1);
  assert.equal(conflict.stale_version, target.memory.id);
  assert.deepEqual([conflict.older.id, conflict.newer.id], [mine.memory.id, theirs.memory.id]);
  assert.deepEqual(conflict.group.conflicts, [conflict.id]);
  assert.deepEqual(
    conflict.group.values.map((memory) => memory.id),
    [theirs.memory.id, mine.memory.id],
  );
  // alice, a member, may not retire dave's memory: not her queue.
  assert.deepEqual(await all(alice.conflicts()), []);

  const resolved = await dave.resolveConflict(conflict.id, "newer_supersedes");
  assert.equal(resolved.id, conflict.id);
  assert.equal(resolved.status, "resolved");
  assert.equal(resolved.resolution, "newer_supersedes");
  assert.equal((await alice.get(mine.memory.id)).superseded_by, theirs.memory.id);
  assert.equal((await alice.history(target.memory.id)).head, theirs.memory.id);
  assert.deepEqual(await all(dave.conflicts()), []);
  assert.deepEqual(
    (await all(dave.conflicts({ status: "resolved", pageSize: 1 }))).map((item) => item.id),
    [conflict.id],
  );
  await assert.rejects(dave.resolveConflict(conflict.id, "older_stands"), StateConflict);
});
