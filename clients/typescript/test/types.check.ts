// What a TypeScript caller sees: this file is type-checked (tsc -p tsconfig.check.json, by
// tests/clients/test_typescript_client.py) against the published declarations (dist/*.d.ts,
// through the package's own name), never run. Each @ts-expect-error is a mistake the types must
// refuse: were they too loose, tsc would report the directive unused.
import {
  Client,
  type Conflict,
  type ContextResult,
  type FeedEvent,
  type History,
  type Memory,
  type RecallHit,
  type RememberResult,
  StaleTarget,
  type StaleEntry,
  ZeromemoryError,
} from "@zeromemory/client";

export async function typed(zm: Client): Promise<void> {
  const written: RememberResult & { status: 200 | 201 } = await zm.remember("text", {
    kind: "decision",
    project: "acme",
    visibility: "project",
    supersedes: ["mem_01M956R4XMW75A20MB1DDHSKQ8"],
    onStale: "follow",
    validFrom: new Date(),
    validUntil: "2027-01-01T00:00:00Z",
    metadata: { source: "typed" },
  });
  const id: string = written.memory.id;
  const hits: RecallHit[] = await zm.recall("q", { project: "acme", kinds: ["fact", "task"], limit: 5 });
  const pack: ContextResult = await zm.context("q", { maxTokens: 300, asOf: new Date() });
  const memory: Memory = await zm.get(id);
  const history: History = await zm.history(id);
  const head: string | null = history.head;
  for await (const item of zm.feed({ state: "all", pageSize: 10, metadata: { team: "infra" } })) {
    const state: "live" | "superseded" | "forgotten" | "pending" = item.state;
    void state;
  }
  for await (const event of zm.events({ type: ["memory.created", "memory.superseded"] })) {
    const typedEvent: FeedEvent = event;
    void typedEvent;
  }
  for await (const conflict of zm.conflicts({ status: "pending" })) {
    const resolved: Conflict = await zm.resolveConflict(conflict.id, "keep_both");
    void resolved;
  }
  const batch = await zm.rememberBatch([{ content: "a" }, { content: "b", kind: "plan" }], { atomic: true });
  for (const item of batch) {
    if ("error" in item) {
      const code: string = item.error.code;
      void code;
    } else {
      const stored: Memory = item.memory;
      void stored;
    }
  }
  try {
    await zm.forget(id, { reason: "r" });
  } catch (error) {
    if (error instanceof StaleTarget) {
      const current: StaleEntry[] = error.current;
      void current;
    }
    if (error instanceof ZeromemoryError) {
      const status: number = error.status;
      const fields: Record<string, unknown> | null = error.fields;
      void [status, fields];
    }
  }
  void [hits, pack, memory, head];

  // @ts-expect-error: the options are camelCase (on_stale is the wire's name)
  await zm.remember("text", { on_stale: "skip" });
  // @ts-expect-error: not a kind
  await zm.remember("text", { kind: "rumour" });
  // @ts-expect-error: not an on_stale mode
  await zm.remember("text", { onStale: "overwrite" });
  // @ts-expect-error: supersedes is a list of ids
  await zm.remember("text", { supersedes: "mem_01M956R4XMW75A20MB1DDHSKQ8" });
  // @ts-expect-error: not a conflict action
  await zm.resolveConflict(1, "stands");
  // @ts-expect-error: not a link type
  await zm.link(id, id, "blocks");
}

export const zm = new Client({ baseUrl: "http://127.0.0.1:8000", token: "zm_…" });
