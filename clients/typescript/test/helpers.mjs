// What every test file needs: the server and the personas' tokens, from the environment that
// tests/clients/test_typescript_client.py sets (alice is ZEROMEMORY_TOKEN, as in the examples).
import { Client } from "@zeromemory/client";

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests through tests/clients/test_typescript_client.py`);
  return value;
}

export const URL_ = required("ZEROMEMORY_URL");
export const TOKENS = {
  alice: required("ZEROMEMORY_TOKEN"),
  bob: required("ZEROMEMORY_TOKEN_BOB"),
  dave: required("ZEROMEMORY_TOKEN_DAVE"),
};

export function client(who = "alice", options = {}) {
  return new Client({ baseUrl: URL_, token: TOKENS[who], ...options });
}

/** Every item of an async iterator, in order. */
export async function all(iterator) {
  const items = [];
  for await (const item of iterator) items.push(item);
  return items;
}

/** The raw answer of one request, bypassing the client: to check what the server holds. */
export async function raw(method, path, who = "alice", body) {
  const response = await fetch(`${URL_}/api/v1/${path}`, {
    method,
    headers: { Authorization: `Bearer ${TOKENS[who]}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
