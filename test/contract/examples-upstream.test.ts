import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { allTools } from "../../src/tools/index.js";
import { argsFor } from "../fixtures/tool-calls.js";
import { startHarness } from "../helpers/harness.js";
import { richCalls } from "./rich-calls.js";

// Issue 43's check, as the bench's runaway tier makes it (bench/examples-upstream.ts), in-process:
// every tool with the contract test's arguments against an upstream answering only the vendor's
// documented examples (later pages empty, fixed totals, the examples' own dates). Each request
// still matches the contract, and no read runs away: the calls and whatever reads they leave
// running cost at most 1,000 upstream requests (176,745 before the readers' checks).

/** Issue 43's bound for the whole run. */
const MOST = 1_000;
/** After the last call, reads are counted until none has come for this long. */
const QUIET_MS = 2_000;

describe("every tool against an upstream answering the vendor's examples only", () => {
  it("stays within 1,000 upstream requests, each within the contract", { timeout: 120_000 }, async () => {
    const sandbox = new Sandbox({ upstream: "examples", ratePerSecond: 1_000_000 });
    await sandbox.start();
    // The pages by their tokens too: the documents' page list names no page.
    const h = await startHarness({ shared: sandbox, config: { pageAccessTokens: sandbox.credentials.pageTokens } });
    const calls = [...allTools.map((t) => [t.name, (s: Sandbox) => argsFor(t.name, s)] as const), ...richCalls];
    const perCall: string[] = [];
    try {
      for (const [name, args] of calls) {
        const before = sandbox.server.received;
        await h.client.callTool({ name, arguments: args(sandbox) });
        perCall.push(`${name} ${sandbox.server.received - before}`);
        // A call that runs away stops the run here rather than after the whole of it.
        expect(sandbox.server.received, perCall.slice(-5).join(", ")).toBeLessThanOrEqual(MOST);
      }
      for (let seen = -1; seen !== sandbox.server.received; ) {
        seen = sandbox.server.received;
        await sleep(QUIET_MS);
      }
      expect(sandbox.server.received, perCall.join(", ")).toBeLessThanOrEqual(MOST);
    } finally {
      await h.close();
      await sandbox.close();
    }
  });
});
