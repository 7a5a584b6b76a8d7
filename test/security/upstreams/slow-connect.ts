// A sandbox in a process of its own behind a loopback proxy that takes 150 ms to open each
// connection, as a distant upstream does. It counts arrivals itself (what the live rate limit
// counts), so the server's timing cannot mark its own homework. Parent protocol over IPC:
// -> { urls, credentials }, then "arrivals" -> [{ path, at }].
import { Sandbox } from "../../../src/sandbox/index.js";
import { slowConnectProxy } from "../../helpers/arrivals.js";

const CONNECT_DELAY_MS = 150;

const sandbox = new Sandbox({ ratePerSecond: 5 });
const { origin } = await sandbox.start();
const target = new URL(origin);
const proxy = await slowConnectProxy(target, CONNECT_DELAY_MS);
const base = proxy.origin;
process.send?.({
  urls: { messagingBaseUrl: `${base}/api`, posBaseUrl: `${base}/pos/api/v1` },
  credentials: sandbox.credentials,
  pages: sandbox.messaging.pages.map((p) => p.id),
});
process.on("message", (message) => {
  if (message === "arrivals") process.send?.(sandbox.server.requests.map((r) => ({ path: r.path, at: r.at })));
});
process.on("disconnect", () => process.exit(0));
