import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busiestWindow, type SlowConnectInfo, servedOf } from "../helpers/arrivals.js";
import { type StdioServer, spawnStdio } from "../helpers/stdio-client.js";
import { startUpstreamProcess, type UpstreamProcess } from "../helpers/upstream-process.js";

const CALLS = 50;
const LIMIT = 5;

// 50 concurrent calls for one page through an upstream that takes 150 ms to open a connection:
// the first sends leave late and bunch with the next ones at the upstream, which refuses a few
// (reads count from when they are sent, the platform's pace); those are tried again, the page's
// reads count from their answers after that, and never more than 5 a second are served.
describe("the page rate limit, counted at the upstream", () => {
  let upstream: UpstreamProcess<SlowConnectInfo>;
  let server: StdioServer;

  beforeAll(async () => {
    upstream = await startUpstreamProcess<SlowConnectInfo>("slow-connect");
    server = await spawnStdio({
      PANCAKE_BASE_URL: upstream.info.urls.messagingBaseUrl,
      PANCAKE_ACCESS_TOKEN: upstream.info.credentials.userToken,
      PANCAKE_LOG_LEVEL: "error",
    });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it(`${CALLS} concurrent calls: at most ${LIMIT} served in any second, a few refused and tried again, every call answered`, async () => {
    const pageId = upstream.info.pages[0]!;
    const results = await Promise.all(
      Array.from({ length: CALLS }, () => server.call("list_conversations", { page_ids: [pageId], limit: 5 })),
    );
    expect(results.filter((r) => r.isError).map((r) => r.text)).toEqual([]);
    const arrivals = await upstream.ask<{ path: string; at: number }[]>("arrivals");
    const forPage = arrivals.filter((a) => a.path.includes(`/pages/${pageId}/`)).map((a) => a.at);
    const served = servedOf(forPage, LIMIT);
    // Exactly CALLS conversation reads plus one tag list served; the refused ones, tried again, a few.
    expect(served.length).toBe(CALLS + 1);
    expect(forPage.length - served.length).toBeLessThanOrEqual(3);
    expect(busiestWindow(served)).toBeLessThanOrEqual(LIMIT);
  }, 40_000);
});
