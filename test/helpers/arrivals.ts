import { createServer as createHttpServer } from "node:http";
import { connect, createServer, type Socket } from "node:net";

/** What the slow-connect upstream (test/security/upstreams/slow-connect.ts) sends first. */
export interface SlowConnectInfo {
  urls: { messagingBaseUrl: string; posBaseUrl: string };
  credentials: { userToken: string };
  pages: string[];
}

/** The most arrivals any window of `windowMs` holds. */
export function busiestWindow(times: number[], windowMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/**
 * The arrivals the upstream served, by its own rule replayed: one is served when fewer than `limit`
 * were served in the `windowMs` before it; the rest it refused (429), to be tried again.
 */
export function servedOf(times: number[], limit: number, windowMs = 1000): number[] {
  const served: number[] = [];
  for (const at of [...times].sort((a, b) => a - b)) if (served.filter((t) => t > at - windowMs).length < limit) served.push(at);
  return served;
}

export interface Listening {
  /** http://127.0.0.1:port */
  origin: string;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy to `target` that accepts at once but holds each new connection `delayMs`
 * before it connects onward: a distant upstream, or a proxy or TLS terminator opening its own
 * connection, past the client's socket where the client cannot see it.
 */
export async function slowConnectProxy(target: { hostname: string; port: string | number }, delayMs: number): Promise<Listening> {
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    sockets.add(client);
    client.pause();
    setTimeout(() => {
      const upstream = connect(Number(target.port), target.hostname, () => {
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
      client.on("close", () => upstream.destroy());
    }, delayMs);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

export interface CountingUpstream extends Listening {
  /** Arrival times (Date.now()) per key, refused ones included. */
  arrivals: Map<string, number[]>;
  /** Requests refused with a 429. */
  refused: number;
  /** Milliseconds each answer waits, from the request's arrival. */
  latencyMs: number;
}

/**
 * A loopback upstream that counts as the platform does: requests to `/k/KEY/...` by arrival, at
 * most `limit` per key in any 1,000 ms, the rest refused (HTTP 429, code 106, Retry-After 1).
 * `/slow/MS` answers after MS milliseconds and counts nowhere.
 */
export async function countingUpstream(limit: number, latencyMs = 0): Promise<CountingUpstream> {
  const state: CountingUpstream = { origin: "", arrivals: new Map(), refused: 0, latencyMs, close: async () => {} };
  const served = new Map<string, number[]>();
  const server = createHttpServer((req, res) => {
    const at = Date.now();
    const [, kind, name] = (req.url ?? "/").split("?")[0]!.split("/");
    const answer = (status: number, body: unknown, wait: number) =>
      setTimeout(() => {
        res.writeHead(status, { "content-type": "application/json", ...(status === 429 ? { "retry-after": "1" } : {}) });
        res.end(JSON.stringify(body));
      }, wait);
    if (kind === "slow") return answer(200, { success: true }, Number(name));
    const key = name ?? "";
    state.arrivals.set(key, [...(state.arrivals.get(key) ?? []), at]);
    const recent = (served.get(key) ?? []).filter((t) => t > at - 1000);
    if (recent.length >= limit) {
      state.refused++;
      return answer(429, { success: false, error_code: 106, message: "You have reached the limit of requests" }, state.latencyMs);
    }
    served.set(key, [...recent, at]);
    answer(200, { success: true }, state.latencyMs);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  state.origin = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
