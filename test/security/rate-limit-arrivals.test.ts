import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busiestWindow, type SlowConnectInfo, servedOf } from "../helpers/arrivals.js";
import { type StdioServer, spawnStdio } from "../helpers/stdio-client.js";
import { startUpstreamProcess, type UpstreamProcess } from "../helpers/upstream-process.js";

const CALLS = 50;
const LIMIT = 5;

// 50 concurrent calls for one page through an upstream that takes 150 ms to open a connection,
// counted where the platform counts them: at the upstream, in a process of its own. The first
// requests, on connections still opening, arrive 150 ms after they are sent; counted from their
// send, the next five went a window later and met them within one second (10 in a second, four
// 429s). Counted from when they most likely arrived (their answer less half the fastest round
// trip), none is refused and the page still gets its 5 a second.
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

  it(`${CALLS} concurrent calls: at most ${LIMIT} arrive in any second, none refused, every call answered, at about ${LIMIT} a second`, async () => {
    const pageId = upstream.info.pages[0]!;
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: CALLS }, () => server.call("list_conversations", { page_ids: [pageId], limit: 5 })),
    );
    const elapsed = (Date.now() - started) / 1000;
    expect(results.filter((r) => r.isError).map((r) => r.text)).toEqual([]);
    const arrivals = await upstream.ask<{ path: string; at: number }[]>("arrivals");
    const forPage = arrivals.filter((a) => a.path.includes(`/pages/${pageId}/`)).map((a) => a.at);
    // Exactly CALLS conversation reads plus one tag list, each sent once: no 429 to try again.
    expect(forPage).toHaveLength(CALLS + 1);
    expect(servedOf(forPage, LIMIT)).toHaveLength(forPage.length);
    expect(busiestWindow(forPage)).toBeLessThanOrEqual(LIMIT);
    // About the platform's pace: the first 5 at once, then 5 a second (a 150 ms connect, a 1.02 s
    // window, and each place held until its answer: a round trip of a loopback and an MCP server).
    expect(elapsed).toBeLessThan(((CALLS + 1 - LIMIT) / LIMIT) * 1.3 + 2);
  }, 40_000);
});
