export { Client } from "./client.js";
export type { ClientOptions, ContextOptions, ConflictsOptions, EventsOptions, EventsPage, FeedOptions, Page, ReadFilters, RecallOptions, RememberCallOptions, RememberItem, RememberOptions, When, } from "./client.js";
export { FeedEpochChanged, Forbidden, IdempotencyKeyReused, InvalidRequest, NotFound, RateLimited, StaleTarget, StateConflict, TransportError, Unauthorized, Unavailable, ZeromemoryError, errorFromAnswer, } from "./errors.js";
export type * from "./types.js";
