import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { waitingByPage } from "../helpers/awaiting.js";
import { callOverHttp } from "../helpers/http-mcp.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

// Hosted: replicas that share the shop index through a real Redis read a big page once between
// them. The one holding the read's lease reads and writes what it read as it goes; the others
// answer from what it wrote, and once it is done, from all of it. The demo shop ten times over
// (2,000 conversations on its biggest page: 34 list calls at the platform's 5 a second), a 5 s budget.

const sandbox = new Sandbox({ scale: 10, ratePerSecond: 5 });
let redis: RedisServer;
let replicas: HttpServerProcess[] = [];

beforeAll(async () => {
  await sandbox.start();
  redis = await startRedis();
  const env = {
    PANCAKE_BASE_URL: sandbox.started.messagingBaseUrl,
    PANCAKE_POS_BASE_URL: sandbox.started.posBaseUrl,
    PANCAKE_ACCESS_TOKEN: sandbox.credentials.userToken,
    PANCAKE_POS_API_KEY: sandbox.credentials.posApiKey,
    PANCAKE_REDIS_URL: redis.url,
    PANCAKE_INDEX: "disk",
    PANCAKE_INDEX_REFRESH_SECONDS: "0",
    PANCAKE_CALL_BUDGET_SECONDS: "5",
  };
  replicas = await Promise.all([spawnHttp([], env), spawnHttp([], env)]);
}, 60_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await redis?.stop();
  await sandbox.close();
});


type Answer = { complete: boolean; groups: { page_id: string; count: number }[]; pages: { page_id: string; reading?: { read: number } }[]; ask_again_in_s?: number };

/** Asks one replica until its answer is complete; every answer. */
async function untilComplete(server: HttpServerProcess): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < 8; i++) {
    const r = await callOverHttp(server.url, "list_conversations", { awaiting_reply: true, group_by: ["page"] });
    expect(r.isError, r.text).toBe(false);
    answers.push(r.data);
    if (r.data.complete) return answers;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  throw new Error("no complete answer after 8 calls");
}

describe("replicas sharing the shop index", () => {
  it("read a big page once between them, and both answer it exactly", async () => {
    const truth = waitingByPage(sandbox);
    const [a, b] = await Promise.all(replicas.map(untilComplete));
    for (const answers of [a!, b!]) {
      const last = answers.at(-1)!;
      expect(new Map(last.groups.map((g) => [g.page_id, g.count]))).toEqual(truth);
    }
    // Both said how far the read had got before it was done, the follower from what the reader wrote.
    for (const answers of [a!, b!]) expect(answers[0]!.complete).toBe(false);
    const biggest = sandbox.messaging.pages
      .map((p) => ({ id: p.id, count: sandbox.messaging.conversations.filter((c) => c.page_id === p.id).length }))
      .reduce((x, y) => (y.count > x.count ? y : x));
    const read = a![0]!.pages.concat(b![0]!.pages).filter((p) => p.page_id === biggest.id && p.reading);
    expect(read.some((p) => (p.reading?.read ?? 0) > 0)).toBe(true);
    // One read: the list calls it needs, a refresh per answer of each replica, and a few retried after a 429.
    const lists = sandbox.server.requests.filter((q) => q.path.endsWith(`/v2/pages/${biggest.id}/conversations`)).length;
    expect(lists).toBeLessThanOrEqual(Math.floor(biggest.count / 60) + 1 + a!.length + b!.length + 3);
  });
});
