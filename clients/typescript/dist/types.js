// The API's bodies as TypeScript sees them (docs/api.md). Field names stay as the server sends
// them (snake_case): a result is the JSON the server answered, typed, not a copy renamed, so
// what docs/api.md says of a field holds for it here word for word.
export {};
