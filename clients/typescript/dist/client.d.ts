import type { BatchItemResult, Conflict, ConflictAction, ConflictStatus, ContextResult, EventType, FeedEvent, FeedState, History, Kind, Link, LinkType, Memory, OnStale, RecallHit, RememberResult, Visibility, Whoami } from "./types.js";
export interface ClientOptions {
    /** The server, e.g. "http://127.0.0.1:8000" (a trailing "/api/v1" is accepted too). */
    baseUrl: string;
    /** An API token (`manage.py issue_token`), sent as `Authorization: Bearer <token>`. */
    token: string;
    /** Attempts per call, the first included (default 4): retries are for safe failures only. */
    maxAttempts?: number;
    /** The first retry's delay in ms, doubled for each next one up to `maxBackoffMs` (default 4000),
     * with jitter (default 250). The same policy as the Python client's. */
    backoffMs?: number;
    maxBackoffMs?: number;
    /** The longest Retry-After the client waits for, ms (default 30000): a 429 that asks for longer
     * is thrown at once as RateLimited, with its `retryAfter` (a 503's waits the backoff instead). */
    maxRetryAfterMs?: number;
    /** How long one attempt may take, ms (default 30000); a timed-out attempt counts as a
     * connection failure. */
    timeoutMs?: number;
    /** Another fetch (a test double, or one with a dispatcher); the global one by default. */
    fetch?: typeof fetch;
}
/** A date as the API takes it: ISO 8601 text, or a Date. */
export type When = string | Date;
export interface RememberOptions {
    kind?: Kind;
    /** A project slug; omit it for your personal scope. */
    project?: string | null;
    visibility?: Visibility;
    session?: string | null;
    metadata?: Record<string, unknown>;
    /** Ids this memory replaces: sent as `links: [{type: "supersedes", dst}]` (a declared supersede). */
    supersedes?: readonly string[];
    /** What a supersedes target that another write already replaced means (docs/api.md). */
    onStale?: OnStale;
    validFrom?: When | null;
    validUntil?: When | null;
}
export interface RememberCallOptions extends RememberOptions {
    /** The call's Idempotency-Key; a new random one by default. Give your own to make a write
     * safe to repeat across restarts of your process (the server keeps keys for 24 hours). */
    idempotencyKey?: string;
}
export interface RememberItem extends RememberOptions {
    content: string;
}
export interface ReadFilters {
    project?: string | null;
    kinds?: readonly Kind[];
    asOf?: When | null;
    validAt?: When | null;
    includeExpired?: boolean;
    /** Only memories whose metadata contains this object (JSON containment, docs/api.md). */
    metadata?: Record<string, unknown> | null;
}
export interface RecallOptions extends ReadFilters {
    /** 1–50, default 10. */
    limit?: number;
    includeSuperseded?: boolean;
}
export interface ContextOptions extends ReadFilters {
    /** 16–8192, default 1000. */
    maxTokens?: number;
}
interface PageOptions {
    /** Where the list starts: the `next` of an earlier page (the URL the server gave, or its cursor). */
    cursor?: string;
    /** The page size asked of the server; not a cap on the items: the iterators follow every page. */
    pageSize?: number;
}
export interface FeedOptions extends PageOptions {
    state?: FeedState;
    kind?: Kind;
    project?: string;
    /** Text search of content. */
    q?: string;
    /** Only memories whose metadata contains this object (JSON containment, docs/api.md). */
    metadata?: Record<string, unknown>;
}
export interface EventsOptions extends PageOptions {
    project?: string;
    type?: EventType | readonly EventType[];
    since?: When;
}
export interface ConflictsOptions extends PageOptions {
    status?: ConflictStatus;
}
export interface Page<T> {
    results: T[];
    /** The next page's URL; null at the end (the feed, conflicts). */
    next: string | null;
}
export interface EventsPage {
    results: FeedEvent[];
    /** Where to ask next, always there once you have a position: keep it to poll for what follows. */
    next: string | null;
    has_more: boolean;
}
export declare class Client {
    #private;
    readonly baseUrl: string;
    constructor(options: ClientOptions);
    /** Store a memory (201), or absorb a restatement into an existing one (200, `absorbed`). One
     * Idempotency-Key for the call, the same on every retry: a retried write is stored once. */
    remember(content: string, options?: RememberCallOptions): Promise<RememberResult & {
        status: 200 | 201;
    }>;
    /** Up to 200 remembers in one request, answered item by item in order (`status` and the remember
     * answer, or `status` and `error`). With `atomic`, the first failing item fails the whole batch:
     * nothing is stored and its error is thrown. One Idempotency-Key covers the batch. */
    rememberBatch(items: readonly RememberItem[], options?: {
        atomic?: boolean;
        idempotencyKey?: string;
    }): Promise<BatchItemResult[]>;
    /** Forget a memory (reversible: restore). Idempotent on a forgotten one. */
    forget(id: string, options?: {
        reason?: string;
    }): Promise<Memory>;
    /** Bring a forgotten or superseded memory back to live. Idempotent on a live one. */
    restore(id: string, options?: {
        reason?: string;
    }): Promise<Memory>;
    /** A typed edge from a memory you may write to one you can see. A `supersedes` link made here is
     * a graph edge only: to retire a memory, remember its successor with `supersedes`. */
    link(src: string, dst: string, type: LinkType): Promise<Link>;
    /** Settle a conflict of the queue. */
    resolveConflict(id: number, action: ConflictAction): Promise<Conflict>;
    /** The memories most relevant to `query` that you may see, best first. */
    recall(query: string, options?: RecallOptions): Promise<RecallHit[]>;
    /** A prompt-ready block of what you know about `query`, never longer than `maxTokens`. */
    context(query: string, options?: ContextOptions): Promise<ContextResult>;
    get(id: string): Promise<Memory>;
    /** Every version joined to `id` by supersedes links, oldest first, with the edges and the head. */
    history(id: string): Promise<History>;
    whoami(): Promise<Whoami>;
    /** One page of the memory feed, newest first. */
    feedPage(options?: FeedOptions): Promise<Page<Memory>>;
    /** Every memory of the feed (newest first), page after page until `next` is null. */
    feed(options?: FeedOptions): AsyncGenerator<Memory, void, undefined>;
    /** One page of events, oldest first. Keep `next` and pass it back as `cursor` to poll. */
    eventsPage(options?: EventsOptions): Promise<EventsPage>;
    /** Every event available now (oldest first), page after page until `has_more` is false. (The
     * events' `next` is always there, so the end is `has_more`; eventsPage gives the cursor to keep.) */
    events(options?: EventsOptions): AsyncGenerator<FeedEvent, void, undefined>;
    /** One page of the conflict queue (pending by default: one item per group, with `group`). */
    conflictsPage(options?: ConflictsOptions): Promise<Page<Conflict>>;
    /** Every conflict both of whose memories you may retire, page after page. */
    conflicts(options?: ConflictsOptions): AsyncGenerator<Conflict, void, undefined>;
}
export {};
