// The client: one method per operation of docs/api.md, over the global fetch and nothing else.
import { errorFromAnswer, TransportError } from "./errors.js";
// 429 and 503 are retried for every call: the server did nothing (a 429 is refused before
// anything runs; on a 503 the write rolled back whole, SPEC R-S9). A gateway's 502 or 504 only for
// the calls safe to replay: the request may or may not have reached the server.
const GATEWAY_STATUSES = new Set([502, 504]);
// Failures that happen before a request is sent: nothing reached the server.
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
export class Client {
    baseUrl;
    #token;
    #maxAttempts;
    #backoffMs;
    #maxBackoffMs;
    #maxRetryAfterMs;
    #timeoutMs;
    #fetch;
    constructor(options) {
        if (!options.baseUrl)
            throw new TypeError("baseUrl is required");
        if (!options.token)
            throw new TypeError("token is required");
        this.baseUrl = options.baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
        this.#token = options.token;
        this.#maxAttempts = Math.max(1, options.maxAttempts ?? 4);
        this.#backoffMs = options.backoffMs ?? 250;
        this.#maxBackoffMs = options.maxBackoffMs ?? 4_000;
        this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
        this.#timeoutMs = options.timeoutMs ?? 30_000;
        this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    }
    // --- writes -------------------------------------------------------------------------------
    /** Store a memory (201), or absorb a restatement into an existing one (200, `absorbed`). One
     * Idempotency-Key for the call, the same on every retry: a retried write is stored once. */
    async remember(content, options = {}) {
        const { idempotencyKey, ...fields } = options;
        const answer = await this.#request({
            method: "POST",
            path: "memories/",
            body: rememberBody({ ...fields, content }),
            retry: "keyed",
            idempotencyKey: idempotencyKey ?? newKey(),
        });
        return { ...answer.body, status: answer.status === 200 ? 200 : 201 };
    }
    /** Up to 200 remembers in one request, answered item by item in order (`status` and the remember
     * answer, or `status` and `error`). With `atomic`, the first failing item fails the whole batch:
     * nothing is stored and its error is thrown. One Idempotency-Key covers the batch. */
    async rememberBatch(items, options = {}) {
        const body = { items: items.map(rememberBody) };
        if (options.atomic !== undefined)
            body["atomic"] = options.atomic;
        const answer = await this.#request({
            method: "POST",
            path: "memories/batch/",
            body,
            retry: "keyed",
            idempotencyKey: options.idempotencyKey ?? newKey(),
        });
        return answer.body.results;
    }
    /** Forget a memory (reversible: restore). Idempotent on a forgotten one. */
    async forget(id, options = {}) {
        const body = options.reason === undefined ? {} : { reason: options.reason };
        return (await this.#request({ method: "POST", path: `memories/${seg(id)}/forget/`, body, retry: "safe" })).body;
    }
    /** Bring a forgotten or superseded memory back to live. Idempotent on a live one. */
    async restore(id, options = {}) {
        const body = options.reason === undefined ? {} : { reason: options.reason };
        return (await this.#request({ method: "POST", path: `memories/${seg(id)}/restore/`, body, retry: "safe" }))
            .body;
    }
    /** A typed edge from a memory you may write to one you can see. A `supersedes` link made here is
     * a graph edge only: to retire a memory, remember its successor with `supersedes`. */
    async link(src, dst, type) {
        return (await this.#request({ method: "POST", path: "links/", body: { src, dst, type }, retry: "unsafe" })).body;
    }
    /** Settle a conflict of the queue. */
    async resolveConflict(id, action) {
        return (await this.#request({
            method: "POST",
            path: `conflicts/${seg(String(id))}/resolve/`,
            body: { action },
            retry: "unsafe",
        })).body;
    }
    // --- reads --------------------------------------------------------------------------------
    /** The memories most relevant to `query` that you may see, best first. */
    async recall(query, options = {}) {
        const body = readBody(query, options);
        if (options.limit !== undefined)
            body["limit"] = options.limit;
        if (options.includeSuperseded !== undefined)
            body["include_superseded"] = options.includeSuperseded;
        const answer = await this.#request({ method: "POST", path: "recall/", body, retry: "safe" });
        return answer.body.results;
    }
    /** A prompt-ready block of what you know about `query`, never longer than `maxTokens`. */
    async context(query, options = {}) {
        const body = readBody(query, options);
        if (options.maxTokens !== undefined)
            body["max_tokens"] = options.maxTokens;
        return (await this.#request({ method: "POST", path: "context/", body, retry: "safe" })).body;
    }
    async get(id) {
        return (await this.#request({ method: "GET", path: `memories/${seg(id)}/`, retry: "safe" })).body;
    }
    /** Every version joined to `id` by supersedes links, oldest first, with the edges and the head. */
    async history(id) {
        return (await this.#request({ method: "GET", path: `memories/${seg(id)}/history/`, retry: "safe" })).body;
    }
    async whoami() {
        return (await this.#request({ method: "GET", path: "whoami/", retry: "safe" })).body;
    }
    // --- lists: one page, or every item following the cursor -------------------------------------
    /** One page of the memory feed, newest first. */
    async feedPage(options = {}) {
        const metadata = options.metadata === undefined ? undefined : JSON.stringify(options.metadata);
        const query = pageQuery(options, {
            state: options.state,
            kind: options.kind,
            project: options.project,
            q: options.q,
            metadata,
        });
        return (await this.#request({ method: "GET", path: "memories/", query, retry: "safe" })).body;
    }
    /** Every memory of the feed (newest first), page after page until `next` is null. */
    async *feed(options = {}) {
        let page = await this.feedPage(options);
        for (;;) {
            yield* page.results;
            if (page.next === null)
                return;
            page = await this.feedPage({ ...options, cursor: page.next });
        }
    }
    /** One page of events, oldest first. Keep `next` and pass it back as `cursor` to poll. */
    async eventsPage(options = {}) {
        const type = typeof options.type === "string" ? options.type : options.type?.join(",");
        const since = options.since === undefined ? undefined : iso(options.since);
        const query = pageQuery(options, { project: options.project, type, since });
        return (await this.#request({ method: "GET", path: "events/", query, retry: "safe" })).body;
    }
    /** Every event available now (oldest first), page after page until `has_more` is false. (The
     * events' `next` is always there, so the end is `has_more`; eventsPage gives the cursor to keep.) */
    async *events(options = {}) {
        let page = await this.eventsPage(options);
        for (;;) {
            yield* page.results;
            if (!page.has_more || page.next === null)
                return;
            page = await this.eventsPage({ ...options, cursor: page.next });
        }
    }
    /** One page of the conflict queue (pending by default: one item per group, with `group`). */
    async conflictsPage(options = {}) {
        const query = pageQuery(options, { status: options.status });
        return (await this.#request({ method: "GET", path: "conflicts/", query, retry: "safe" })).body;
    }
    /** Every conflict both of whose memories you may retire, page after page. */
    async *conflicts(options = {}) {
        let page = await this.conflictsPage(options);
        for (;;) {
            yield* page.results;
            if (page.next === null)
                return;
            page = await this.conflictsPage({ ...options, cursor: page.next });
        }
    }
    // --- the transport --------------------------------------------------------------------------
    async #request(spec) {
        const url = new URL(`${this.baseUrl}/api/v1/${spec.path}`);
        if (spec.query !== undefined)
            url.search = spec.query.toString();
        const headers = {
            Accept: "application/json",
            Authorization: `Bearer ${this.#token}`,
        };
        if (spec.body !== undefined)
            headers["Content-Type"] = "application/json";
        if (spec.idempotencyKey !== undefined)
            headers["Idempotency-Key"] = spec.idempotencyKey;
        const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
        for (let attempt = 1;; attempt++) {
            const last = attempt >= this.#maxAttempts;
            let response;
            let parsed;
            try {
                response = await this.#fetch(url, {
                    method: spec.method,
                    headers,
                    body: payload,
                    redirect: "manual",
                    signal: AbortSignal.timeout(this.#timeoutMs),
                });
                parsed = await readJson(response);
            }
            catch (failure) {
                // No answer. Whether the request reached the server decides whether it may go again.
                const retryable = spec.retry !== "unsafe" || notSent(failure);
                if (last || !retryable) {
                    throw new TransportError(0, { code: "transport_error", message: describe(failure) }, { cause: failure });
                }
                await sleep(this.#backoff(attempt));
                continue;
            }
            if (response.ok)
                return { status: response.status, body: parsed };
            const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
            const error = errorFromAnswer(response.status, parsed, retryAfter);
            if (last)
                throw error;
            const asked = retryAfter === null ? null : retryAfter * 1000;
            let wait;
            if (response.status === 429) {
                wait = asked ?? this.#backoff(attempt);
                if (wait > this.#maxRetryAfterMs)
                    throw error; // not worth waiting for: the caller decides
            }
            else if (response.status === 503) {
                wait = asked !== null && asked <= this.#maxRetryAfterMs ? asked : this.#backoff(attempt);
            }
            else if (GATEWAY_STATUSES.has(response.status) && spec.retry !== "unsafe") {
                wait = this.#backoff(attempt);
            }
            else if (spec.retry === "keyed" && error.code === "idempotency_in_progress") {
                // This very write's first attempt still runs on the server (its answer was lost on the
                // way): wait, and the retry replays its answer.
                wait = this.#backoff(attempt);
            }
            else {
                throw error;
            }
            await sleep(wait);
        }
    }
    #backoff(attempt) {
        const base = Math.min(this.#maxBackoffMs, this.#backoffMs * 2 ** (attempt - 1));
        return base / 2 + Math.random() * (base / 2);
    }
}
// --- bodies ----------------------------------------------------------------------------------
function rememberBody(item) {
    const body = { content: item.content };
    put(body, "kind", item.kind);
    put(body, "project", item.project);
    put(body, "visibility", item.visibility);
    put(body, "session", item.session);
    put(body, "metadata", item.metadata);
    if (item.supersedes !== undefined && item.supersedes.length > 0) {
        body["links"] = item.supersedes.map((dst) => ({ type: "supersedes", dst }));
    }
    put(body, "on_stale", item.onStale);
    put(body, "valid_from", item.validFrom === undefined ? undefined : isoOrNull(item.validFrom));
    put(body, "valid_until", item.validUntil === undefined ? undefined : isoOrNull(item.validUntil));
    return body;
}
function readBody(query, options) {
    const body = { query };
    put(body, "project", options.project);
    put(body, "kinds", options.kinds);
    put(body, "as_of", options.asOf === undefined ? undefined : isoOrNull(options.asOf));
    put(body, "valid_at", options.validAt === undefined ? undefined : isoOrNull(options.validAt));
    put(body, "include_expired", options.includeExpired);
    put(body, "metadata", options.metadata);
    return body;
}
/** A list's query: the filters, or, for a next page, the query of the `next` URL the server gave
 * (which carries the filters with the cursor) — asked of our own base URL, not the URL's host,
 * which a proxy in between may have rewritten. */
function pageQuery(options, filters) {
    const query = new URLSearchParams();
    if (options.cursor !== undefined) {
        if (/^https?:\/\//.test(options.cursor)) {
            const next = new URL(options.cursor).searchParams;
            // The server's next carries the page size it was asked for; one given now wins.
            if (options.pageSize !== undefined)
                next.set("limit", String(options.pageSize));
            return next;
        }
        query.set("cursor", options.cursor);
    }
    for (const [key, value] of Object.entries(filters)) {
        if (value !== undefined)
            query.set(key, value);
    }
    if (options.pageSize !== undefined)
        query.set("limit", String(options.pageSize));
    return query;
}
// A key the caller did not give is left out, so that the server's default applies: several fields
// take no null (kind, metadata, on_stale), and the bodies are strict (docs/api.md).
function put(body, key, value) {
    if (value !== undefined)
        body[key] = value;
}
function iso(value) {
    return value instanceof Date ? value.toISOString() : value;
}
function isoOrNull(value) {
    return value === null ? null : iso(value);
}
function seg(value) {
    return encodeURIComponent(value);
}
function newKey() {
    return globalThis.crypto.randomUUID();
}
async function readJson(response) {
    const text = await response.text();
    if (text === "")
        return null;
    try {
        return JSON.parse(text);
    }
    catch {
        if (response.ok)
            throw new SyntaxError(`The server answered ${response.status} with a body that is not JSON.`);
        return null; // an error page (a proxy's HTML): the status says enough
    }
}
/** Retry-After in seconds: a number of seconds or an HTTP date (RFC 9110); null without one. */
function parseRetryAfter(header) {
    if (header === null || header.trim() === "")
        return null;
    const seconds = Number(header);
    if (Number.isFinite(seconds))
        return Math.max(0, seconds);
    const date = Date.parse(header);
    return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}
/** Whether a fetch failure certainly happened before the request was sent (connection refused, no
 * such host): only then may a call that is not idempotent go again. */
function notSent(failure) {
    const codes = [];
    const visit = (value, depth) => {
        if (depth > 4 || typeof value !== "object" || value === null)
            return;
        const record = value;
        if (typeof record.code === "string")
            codes.push(record.code);
        visit(record.cause, depth + 1);
        if (Array.isArray(record.errors))
            for (const inner of record.errors)
                visit(inner, depth + 1);
    };
    visit(failure, 0);
    return codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code));
}
function describe(failure) {
    if (failure instanceof Error) {
        const cause = failure.cause instanceof Error ? `: ${failure.cause.message}` : "";
        return `${failure.message}${cause}`;
    }
    return String(failure);
}
function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
