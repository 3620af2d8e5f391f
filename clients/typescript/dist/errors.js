// One error family for every failure the client reports, the same classes as the Python client
// (clients/python, zeromemory_client.errors). The server answers every error as
// {"error": {"code", "message", "fields"?, …}} (SPEC R-O8); the class follows the status (and,
// for 409, the code), so a caller catches what it can act on: StaleTarget to reread a fact's
// current version, NotFound, InvalidRequest with .fields.
/** An error answer: `status` (HTTP; 0 when no answer came), `code` (the server's), `message`,
 * `fields` (per-field messages on a 400, else null) and `body`, the whole error object (with any
 * extra keys a rule names, e.g. `current` on `stale_target`, `epoch` on `feed_epoch_changed`). */
export class ZeromemoryError extends Error {
    status;
    code;
    fields;
    body;
    constructor(status, body, options) {
        super(`${status} ${body.code}: ${body.message}`, options);
        this.name = new.target.name;
        this.status = status;
        this.code = body.code;
        this.fields = body.fields !== undefined && body.fields !== null && typeof body.fields === "object" ? body.fields : null;
        this.body = body;
    }
}
/** 400: a field is missing, unknown or of the wrong type (`fields` names it); nothing changed. */
export class InvalidRequest extends ZeromemoryError {
}
/** 401: no token, or one the server does not know (revoked, expired). */
export class Unauthorized extends ZeromemoryError {
}
/** 403: the token may see this but not do it (`forbidden`, `read_only_token`, `outside_token_scope`,
 * `supersede_target_forbidden`, `provisional_cannot_supersede`). */
export class Forbidden extends ZeromemoryError {
}
/** 404: missing, or not visible to you (the two answer alike); `project_not_found` too. */
export class NotFound extends ZeromemoryError {
}
/** 409: the thing is not in the state the call needs (`not_live`, `group_changed`,
 * `idempotency_in_progress`). */
export class StateConflict extends ZeromemoryError {
}
/** 409 `stale_target`: a write with onStale "reject" named a version another write already
 * replaced. Nothing was stored. `current` lists `{dst, current}` for each stale target: the version
 * that is current now (or null), to reread before deciding again. */
export class StaleTarget extends StateConflict {
    get current() {
        const entries = this.body["current"];
        return Array.isArray(entries) ? entries : [];
    }
}
/** 410: the database was restored since this events cursor was handed out (docs/api.md): reread
 * the state you follow, then read the events again without the cursor. */
export class FeedEpochChanged extends ZeromemoryError {
}
/** 422: the Idempotency-Key was used before with other arguments. */
export class IdempotencyKeyReused extends ZeromemoryError {
}
/** 429 after the retries: `retryAfter` is the server's Retry-After, in seconds (null without one). */
export class RateLimited extends ZeromemoryError {
    retryAfter = null;
}
/** 503 after the retries: the database or the embedding model is unavailable for now. */
export class Unavailable extends ZeromemoryError {
}
/** No answer at all (connection refused, reset, timed out) after the retries; `status` 0,
 * `code` "transport_error"; `cause` is the last failure. */
export class TransportError extends ZeromemoryError {
}
const BY_STATUS = {
    400: InvalidRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: StateConflict,
    410: FeedEpochChanged,
    422: IdempotencyKeyReused,
    429: RateLimited,
    503: Unavailable,
};
/** The error for an error answer: any JSON, or none at all (a proxy's HTML page). */
export function errorFromAnswer(status, payload, retryAfter = null) {
    let body;
    const inner = isObject(payload) ? payload["error"] : undefined;
    if (isObject(inner) && typeof inner["code"] === "string") {
        body = { ...inner, code: inner["code"], message: String(inner["message"] ?? "") };
    }
    else {
        body = { code: `http_${status}`, message: "The server answered an error without a message." };
    }
    const Kind = body.code === "stale_target" ? StaleTarget : (BY_STATUS[status] ?? ZeromemoryError);
    const error = new Kind(status, body);
    if (error instanceof RateLimited) {
        error.retryAfter = retryAfter;
    }
    return error;
}
function isObject(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}
