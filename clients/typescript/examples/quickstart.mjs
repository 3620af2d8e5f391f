// docs/clients/typescript.md's example, run as it is by tests/clients/test_typescript_client.py.
// Needs the server (./zm serve) and a token: ZEROMEMORY_URL=http://127.0.0.1:8000 ZEROMEMORY_TOKEN=...
import { Client, NotFound, StaleTarget } from "@zeromemory/client";

const zm = new Client({ baseUrl: process.env.ZEROMEMORY_URL, token: process.env.ZEROMEMORY_TOKEN });

const me = await zm.whoami();
console.log(`signed in as ${me.user}`);

// Remember a decision, then replace it: a declared supersede keeps both, in one version chain.
const monday = await zm.remember("The deploy window is Monday 10:00 UTC.", { kind: "decision" });
const friday = await zm.remember("The deploy window is Friday 14:00 UTC.", {
  kind: "decision",
  supersedes: [monday.memory.id],
});
console.log(`replaced the Monday version: ${friday.superseded[0] === monday.memory.id}`);

const [best] = await zm.recall("When is the deploy window?", { limit: 1 });
console.log(`recall: ${best.memory.content}`);

// A writer that read the Monday version and wants to replace only that one: compare-and-set.
try {
  await zm.remember("The deploy window is Sunday 08:00 UTC.", {
    kind: "decision",
    supersedes: [monday.memory.id],
    onStale: "reject",
  });
} catch (error) {
  if (!(error instanceof StaleTarget)) throw error;
  const [{ current }] = error.current;
  console.log(`stale: the current version is the Friday one: ${current === friday.memory.id}`);
}

const history = await zm.history(friday.memory.id);
for (const version of history.versions) console.log(`history: ${version.state} ${version.content}`);

const pack = await zm.context("When is the deploy window?", { maxTokens: 200 });
console.log(pack.text);

try {
  await zm.get("mem_00000000000000000000000000");
} catch (error) {
  if (!(error instanceof NotFound)) throw error;
  console.log(`not found: ${error.status} ${error.code}`);
}
