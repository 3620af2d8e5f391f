// The API's bodies as TypeScript sees them (docs/api.md). Field names stay as the server sends
// them (snake_case): a result is the JSON the server answered, typed, not a copy renamed, so
// what docs/api.md says of a field holds for it here word for word.

export type Kind =
  | "fact"
  | "decision"
  | "preference"
  | "plan"
  | "procedure"
  | "observation"
  | "task"
  | "open-question";
export type Visibility = "project" | "private";
export type MemoryState = "live" | "superseded" | "forgotten" | "pending";
export type LinkType = "supersedes" | "relates_to" | "derived_from" | "depends_on" | "contradicts";
export type OnStale = "skip" | "reject" | "follow";
export type FeedState = "live" | "pending" | "superseded" | "forgotten" | "all";
export type ConflictStatus = "pending" | "resolved" | "dismissed";
export type ConflictAction = "newer_supersedes" | "older_stands" | "keep_both" | "dismiss";
export type EventType =
  | "memory.created"
  | "memory.superseded"
  | "memory.forgotten"
  | "memory.restored"
  | "memory.submitted"
  | "memory.approved"
  | "memory.purged"
  | "conflict.opened"
  | "conflict.resolved";

/** A memory (SPEC §3). Times are ISO 8601 strings in UTC. */
export interface Memory {
  id: string;
  content: string;
  kind: Kind;
  owner: string;
  project: string | null;
  visibility: Visibility;
  provenance: "authoritative" | "provisional";
  session: string | null;
  metadata: Record<string, unknown>;
  state: MemoryState;
  superseded_by: string | null;
  invalidated_at: string | null;
  loop_status: "open" | "closed" | null;
  closed_by: string | null;
  closed_at: string | null;
  valid_from: string | null;
  valid_until: string | null;
  purged_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One of your live memories most like what you wrote (docs/api.md, "similar_existing"). */
export interface SimilarMemory {
  id: string;
  kind: Kind;
  project: string | null;
  distance: number;
  score: number;
  age: string;
  age_seconds: number;
  created_at: string;
  preview: string;
}

/** A supersedes target that was not replaced: missing, already retired (`dead`) or the write itself. */
export interface Skipped {
  dst: string;
  reason: string;
  /** For `dead`: the version that is current now, or null. */
  current?: string | null;
}

/** A stale target and the version that is current now (`follow`'s `followed`, `stale_target`'s `current`). */
export interface StaleEntry {
  dst: string;
  current: string | null;
}

/** The answer to remember: 201 stored, or 200 absorbed into an existing memory (`absorbed`). */
export interface RememberResult {
  memory: Memory;
  absorbed: boolean;
  /** The ids this write retired. */
  superseded: string[];
  skipped: Skipped[];
  followed?: StaleEntry[];
  /** Only when the write declared no supersede. */
  similar_existing?: SimilarMemory[];
  hint?: string;
  matches_retired?: { id: string; state: "superseded"; current: string | null }[];
  redacted?: { type: string; where: string }[];
}

/** One item of a batch's answer: a remember answer with its status, or the item's error. */
export type BatchItemResult =
  | ({ status: 200 | 201 } & RememberResult)
  | { status: number; error: ErrorBody };

export interface BatchResult {
  results: BatchItemResult[];
}

export interface RecallHit {
  memory: Memory;
  distance: number;
  score: number;
}

export interface RecallResult {
  results: RecallHit[];
}

export interface ContextItem {
  id: string;
  kind: Kind;
  project: string | null;
  section: "facts" | "open_loops";
  score: number;
  tokens: number;
  created_at: string;
  was: { id: string; until: string | null } | null;
}

export interface ContextResult {
  text: string;
  tokens: number;
  token_counter: string;
  items: ContextItem[];
  left_out: number;
}

export interface Link {
  id: number;
  src: string;
  dst: string;
  type: LinkType;
  origin: "declared" | "hygiene" | "moderator" | "link";
  reverted: boolean;
  created_at: string;
}

export interface History {
  /** The newest live version, or null if none. */
  head: string | null;
  /** Oldest first. */
  versions: Memory[];
  edges: Link[];
}

export interface FeedEvent {
  /** `evt_<n>`. */
  id: string;
  type: EventType;
  created_at: string;
  project: string | null;
  memory: string | null;
  conflict: number | null;
  data: Record<string, unknown>;
}

export interface Whoami {
  user: string;
  credential: {
    label: string;
    prefix: string;
    provenance: "authoritative" | "provisional";
    created_at: string;
    expires_at: string | null;
  };
  scope: { projects: string[] | null; read_only: boolean };
  projects: { slug: string; name: string; role: "member" | "maintainer" }[];
  rate_limit: { per_minute: number | null; remaining: number | null };
}

export interface Conflict {
  id: number;
  status: ConflictStatus;
  relation: string;
  confidence: number;
  rationale: string;
  /** Empty while pending. */
  resolution: string;
  same_credential: boolean;
  /** A fork: the version both writers replaced, when you may see it; null for a judge's conflict. */
  stale_version: string | null;
  opened_at: string;
  resolved_at: string | null;
  older: Memory;
  newer: Memory;
  /** Pending listing only: the group this conflict leads (its conflicts' ids and live values). */
  group?: { conflicts: number[]; values: Memory[] };
}

/** The error object inside `{"error": …}` (SPEC R-O8), with any extra keys a rule names. */
export interface ErrorBody {
  code: string;
  message: string;
  fields?: Record<string, unknown>;
  [extra: string]: unknown;
}
