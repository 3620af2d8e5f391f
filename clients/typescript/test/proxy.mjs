// A real TCP proxy in front of the server, to make the failures the client must survive: each
// connection it accepts gets the next of a list of behaviours (then "forward"):
//   "forward"      pipe both ways;
//   "drop-answer"  send the request on to the server, and close the client's connection as soon
//                  as the answer starts: the server did the work, the client never hears of it;
//   "refuse-429"   answer 429 with Retry-After itself (nothing reaches the server);
//   "refuse-503"   answer 503 itself;
//   "in-progress"  answer 409 idempotency_in_progress itself, as the server does to a retry that
//                  arrives while the first attempt of its write still runs.
import net from "node:net";

export async function startProxy(upstreamUrl, behaviours, { port = 0, retryAfter = "1" } = {}) {
  const upstream = new URL(upstreamUrl);
  const connections = []; // per connection: {behaviour, headers (the request's, lower-cased), forwarded}
  const sockets = new Set();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => {});
    const seen = { behaviour: behaviours[connections.length] ?? "forward", headers: {}, forwarded: false };
    connections.push(seen);
    let head = "";
    const noteHeaders = (chunk) => {
      if (head.includes("\r\n\r\n")) return;
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      for (const line of head.slice(0, end).split("\r\n").slice(1)) {
        const colon = line.indexOf(":");
        seen.headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
    };
    const canned = {
      "refuse-429": ["429 Too Many Requests", "rate_limited"],
      "refuse-503": ["503 Service Unavailable", "database_unavailable"],
      "in-progress": ["409 Conflict", "idempotency_in_progress"],
    }[seen.behaviour];
    if (canned !== undefined) {
      client.once("data", (chunk) => {
        noteHeaders(chunk);
        const [status, code] = canned;
        const body = JSON.stringify({ error: { code, message: "from the test's proxy" } });
        const extra = seen.behaviour === "refuse-429" ? `Retry-After: ${retryAfter}\r\n` : "";
        client.end(
          `HTTP/1.1 ${status}\r\n${extra}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `Connection: close\r\n\r\n${body}`,
        );
      });
      return;
    }
    const server = net.connect(Number(upstream.port), upstream.hostname);
    sockets.add(server);
    server.on("close", () => sockets.delete(server));
    server.on("error", () => client.destroy());
    client.on("data", (chunk) => {
      noteHeaders(chunk);
      seen.forwarded = true;
      server.write(chunk);
    });
    client.on("end", () => server.end());
    server.on("data", (chunk) => {
      if (seen.behaviour === "drop-answer") {
        // The answer exists (the write committed before it was sent): lose it.
        client.destroy();
        server.destroy();
        return;
      }
      client.write(chunk);
    });
    server.on("end", () => client.end());
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    connections,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port nothing listens on (for now). */
export async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
