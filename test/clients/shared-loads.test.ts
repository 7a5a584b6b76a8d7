import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signalled } from "../../src/clients/call-signal.js";
import { type Clients, createClients } from "../../src/clients/index.js";
import { makeConfig } from "../../src/config.js";
import { Logger } from "../../src/log.js";
import { cachedTags } from "../../src/tools/inbox/page-lookups.js";
import { geoIndex } from "../../src/tools/shop/geo-index.js";

// A read that several calls share (the page list, a cached tag list, address data) used to run
// with the first caller's cancellation signal: when that caller went away, every other caller
// waiting on it failed with "cancelled by the client", across users of one HTTP server.
let upstream: Server;
let clients: Clients;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    setTimeout(() => {
      res.setHeader("content-type", "application/json");
      const url = req.url ?? "";
      if (url.startsWith("/api/v1/pages?")) res.end(JSON.stringify({ success: true, categorized: { activated: [{ id: "p1", name: "Page One", settings: { page_access_token: "tok-p1-xxxxxxxxxxxx" } }] } }));
      else if (url.includes("/tags")) res.end(JSON.stringify({ success: true, tags: [{ id: 1, text: "VIP" }] }));
      else if (url.includes("/geo/provinces")) res.end(JSON.stringify({ success: true, data: [{ id: "101", name: "Hà Nội" }] }));
      else res.writeHead(404).end("{}");
    }, 300);
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const config = makeConfig({ baseUrl: `${origin}/api`, posBaseUrl: `${origin}/pos`, accessToken: "user-token-xxxxxxxxxxxxxxxx", posApiKeys: { "*": "pos-key-xxxxxxxxxxxx" } });
  clients = createClients(config, new Logger("error", false));
});
afterAll(async () => {
  await clients.close();
  upstream.close();
});

/** Two calls read the same thing at once; the first cancels while the read runs. */
async function sharedRead(read: (view: Clients) => Promise<unknown>) {
  const a = new AbortController();
  const b = new AbortController();
  const view = (signal: AbortSignal): Clients => ({ ...clients, messaging: signalled(clients.messaging, signal), pos: signalled(clients.pos, signal) });
  const first = read(view(a.signal)).then(() => "answered", (e: Error) => e.message);
  const second = read(view(b.signal)).then(() => "answered", (e: Error) => e.message);
  setTimeout(() => a.abort(), 50);
  return { first: await first, second: await second };
}

it("the page list: the caller that cancels stops waiting, the other gets its answer", async () => {
  expect(await sharedRead((c) => c.messaging.resolvePage("Page One"))).toEqual({ first: expect.stringMatching(/cancelled/), second: "answered" });
});

it("a cached list: the same", async () => {
  expect(await sharedRead((c) => cachedTags(c.messaging, "p1"))).toEqual({ first: expect.stringMatching(/cancelled/), second: "answered" });
});

it("address data: the same, and the shared read stays cached for the next call", async () => {
  expect(await sharedRead((c) => geoIndex(c.pos).provinces())).toEqual({ first: expect.stringMatching(/cancelled/), second: "answered" });
  const started = Date.now();
  await geoIndex(clients.pos).provinces();
  expect(Date.now() - started).toBeLessThan(250);
});
