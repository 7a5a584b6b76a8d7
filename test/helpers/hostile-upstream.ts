import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface HostileUpstream {
  /** Origin, e.g. http://127.0.0.1:PORT (point PANCAKE_POS_BASE_URL / PANCAKE_BASE_URL below it). */
  url: string;
  /** Requests received so far, in order; `droppedAt`: when the client went away before the answer ended. */
  requests: { method: string; path: string; at: number; droppedAt?: number }[];
  close(): Promise<void>;
}

/** An upstream of the test's own making on loopback, answering every request with `handler`. */
export async function hostileUpstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<HostileUpstream> {
  const requests: HostileUpstream["requests"] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const entry: HostileUpstream["requests"][number] = { method: req.method ?? "", path: req.url ?? "", at: Date.now() };
    requests.push(entry);
    res.on("close", () => {
      if (!res.writableEnded) entry.droppedAt = Date.now();
    });
    handler(req, res);
    if (req.listenerCount("data") === 0) req.resume();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes `chunk` every `everyMs` until the client goes away (or `total` chunks are sent). */
export function drip(res: ServerResponse, chunk: string | Buffer, everyMs: number, total = Number.POSITIVE_INFINITY): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed || sent >= total) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    sent++;
    res.write(chunk);
  }, everyMs);
  res.on("close", () => clearInterval(timer));
}

/** Streams `chunk` as fast as the client reads, until `total` bytes or the client goes away. */
export function flood(res: ServerResponse, total = Number.POSITIVE_INFINITY, chunk = Buffer.alloc(64 * 1024, 0x61)): void {
  let sent = 0;
  const pump = () => {
    while (!res.destroyed && sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    if (!res.destroyed) res.end();
  };
  res.on("error", () => {});
  pump();
}

/** Resident memory of a process, in MB (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * A hostile upstream in front of a real one (the sandbox): `intercept` answers the requests it
 * wants to (returning true), everything else is passed through unchanged.
 */
export async function hostileProxy(
  target: string,
  intercept: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<HostileUpstream> {
  const { request } = await import("node:http");
  const to = new URL(target);
  return hostileUpstream((req, res) => {
    if (intercept(req, res)) return;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const upstream = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
}
