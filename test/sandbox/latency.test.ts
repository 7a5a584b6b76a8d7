import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";

// A slow upstream (SandboxOptions.latencyMs): every answer waits, counted from the request's
// arrival, and the rate limit still decides on arrival.

const LATENCY = 1500;
const sandbox = new Sandbox({ latencyMs: LATENCY, ratePerSecond: 2 });
const page = sandbox.messaging.pages[0]!.id;
let origin: string;

beforeAll(async () => {
  origin = (await sandbox.start()).origin;
});
afterAll(() => sandbox.close());

/** GETs `path`; resolves with the status and how long the answer took. */
async function timed(path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(origin + path);
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}
const conversations = () => timed(`/api/public_api/v2/pages/${page}/conversations?page_access_token=${sandbox.credentials.pageTokens[page]}`);
const orders = () => timed(`/pos/api/v1/shops/${sandbox.credentials.shopId}/orders?api_key=${sandbox.credentials.posApiKey}`);

describe("a standing latency", () => {
  it("answers both APIs after the delay, a refusal too, which was decided when the request arrived", async () => {
    const first = [conversations(), conversations()];
    // Half-way through the first answers' wait: the page's two calls of this second are taken. Were
    // the limit decided when the answer goes, a second would have passed and this one would pass.
    await new Promise((resolve) => setTimeout(resolve, LATENCY / 3));
    const third = conversations();
    const [a, b, c] = await Promise.all([...first, third]);
    expect([a!.status, b!.status, c!.status]).toEqual([200, 200, 429]);
    for (const r of [a!, b!, c!]) expect(r.ms).toBeGreaterThanOrEqual(LATENCY - 5);
    expect((await orders()).ms).toBeGreaterThanOrEqual(LATENCY - 5);
  });

  it("changes while serving, and is never negative", async () => {
    sandbox.server.latencyMs = 0;
    expect((await orders()).ms).toBeLessThan(LATENCY);
    sandbox.server.latencyMs = LATENCY;
    expect(() => new Sandbox({ latencyMs: -5 })).toThrow(/latencyMs must be a number of milliseconds, 0 or more/);
  });
});
