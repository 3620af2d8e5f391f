import type { ErrorBody, StaleEntry } from "./types.js";
/** An error answer: `status` (HTTP; 0 when no answer came), `code` (the server's), `message`,
 * `fields` (per-field messages on a 400, else null) and `body`, the whole error object (with any
 * extra keys a rule names, e.g. `current` on `stale_target`, `epoch` on `feed_epoch_changed`). */
export declare class ZeromemoryError extends Error {
    readonly status: number;
    readonly code: string;
    readonly fields: Record<string, unknown> | null;
    readonly body: ErrorBody;
    constructor(status: number, body: ErrorBody, options?: ErrorOptions);
}
/** 400: a field is missing, unknown or of the wrong type (`fields` names it); nothing changed. */
export declare class InvalidRequest extends ZeromemoryError {
}
/** 401: no token, or one the server does not know (revoked, expired). */
export declare class Unauthorized extends ZeromemoryError {
}
/** 403: the token may see this but not do it (`forbidden`, `read_only_token`, `outside_token_scope`,
 * `supersede_target_forbidden`, `provisional_cannot_supersede`). */
export declare class Forbidden extends ZeromemoryError {
}
/** 404: missing, or not visible to you (the two answer alike); `project_not_found` too. */
export declare class NotFound extends ZeromemoryError {
}
/** 409: the thing is not in the state the call needs (`not_live`, `group_changed`,
 * `idempotency_in_progress`). */
export declare class StateConflict extends ZeromemoryError {
}
/** 409 `stale_target`: a write with onStale "reject" named a version another write already
 * replaced. Nothing was stored. `current` lists `{dst, current}` for each stale target: the version
 * that is current now (or null), to reread before deciding again. */
export declare class StaleTarget extends StateConflict {
    get current(): StaleEntry[];
}
/** 410: the database was restored since this events cursor was handed out (docs/api.md): reread
 * the state you follow, then read the events again without the cursor. */
export declare class FeedEpochChanged extends ZeromemoryError {
}
/** 422: the Idempotency-Key was used before with other arguments. */
export declare class IdempotencyKeyReused extends ZeromemoryError {
}
/** 429 after the retries: `retryAfter` is the server's Retry-After, in seconds (null without one). */
export declare class RateLimited extends ZeromemoryError {
    retryAfter: number | null;
}
/** 503 after the retries: the database or the embedding model is unavailable for now. */
export declare class Unavailable extends ZeromemoryError {
}
/** No answer at all (connection refused, reset, timed out) after the retries; `status` 0,
 * `code` "transport_error"; `cause` is the last failure. */
export declare class TransportError extends ZeromemoryError {
}
/** The error for an error answer: any JSON, or none at all (a proxy's HTML page). */
export declare function errorFromAnswer(status: number, payload: unknown, retryAfter?: number | null): ZeromemoryError;
