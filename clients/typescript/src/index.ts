// @zeromemory/client: the zeromemory memory server's API from TypeScript or JavaScript.
// docs/clients/typescript.md in the repository says how to install and use it.

export { Client } from "./client.js";
export type {
  ClientOptions,
  ContextOptions,
  ConflictsOptions,
  EventsOptions,
  EventsPage,
  FeedOptions,
  Page,
  ReadFilters,
  RecallOptions,
  RememberCallOptions,
  RememberItem,
  RememberOptions,
  When,
} from "./client.js";
export {
  FeedEpochChanged,
  Forbidden,
  IdempotencyKeyReused,
  InvalidRequest,
  NotFound,
  RateLimited,
  StaleTarget,
  StateConflict,
  TransportError,
  Unauthorized,
  Unavailable,
  ZeromemoryError,
  errorFromAnswer,
} from "./errors.js";
export type * from "./types.js";
