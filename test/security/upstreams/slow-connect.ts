// A sandbox in a process of its own behind a loopback proxy that takes 150 ms to open each
// connection, as a distant upstream does. It counts arrivals itself (what the live rate limit
// counts), so the server's timing cannot mark its own homework. Parent protocol over IPC:
// -> { urls, credentials }, then "arrivals" -> [{ path, at }].
import { connect, createServer } from "node:net";
import { Sandbox } from "../../../src/sandbox/index.js";

const CONNECT_DELAY_MS = 150;

const sandbox = new Sandbox({ ratePerSecond: 5 });
const { origin } = await sandbox.start();
const target = new URL(origin);
const proxy = createServer((client) => {
  client.pause();
  setTimeout(() => {
    const upstream = connect(Number(target.port), target.hostname, () => {
      client.pipe(upstream).pipe(client);
      client.resume();
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    client.on("close", () => upstream.destroy());
  }, CONNECT_DELAY_MS);
});
await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const address = proxy.address() as { port: number };
const base = `http://127.0.0.1:${address.port}`;
process.send?.({
  urls: { messagingBaseUrl: `${base}/api`, posBaseUrl: `${base}/pos/api/v1` },
  credentials: sandbox.credentials,
  pages: sandbox.messaging.pages.map((p) => p.id),
});
process.on("message", (message) => {
  if (message === "arrivals") process.send?.(sandbox.server.requests.map((r) => ({ path: r.path, at: r.at })));
});
process.on("disconnect", () => process.exit(0));
