import { describe, expect, it } from "vitest";
import { customerWroteAt, lastWeek, salesOf } from "../../helpers/chat-sales.js";
import { startHarness, useHarness } from "../../helpers/harness.js";

// A big shop's first question: its orders are read into the shop index for longer than a call
// waits. The answer comes within the call's budget, not complete, saying how far the read got and
// when to ask again; asked again as told, it is exact (issue 40, "the read goes on").

const BUDGET_S = 5;
const h = useHarness({ sandbox: { ratePerSecond: 100_000 }, config: { callBudgetSeconds: BUDGET_S } });

const ASK = { page_ids: ["Mây Kids"], time_field: "customer", since: "last week", until: "last week", ordered: false };

describe("list_conversations ordered while the shop's orders are first read", () => {
  it("answers in time, not complete, then exactly", async () => {
    // The POS answers its order list slowly: the first read of the shop's orders outlasts a call.
    h.sandbox.server.injectFault({ method: "GET", path: /\/shops\/[^/]+\/orders$/, kind: "latency", delayMs: 7_000, times: 2 });
    const t0 = Date.now();
    const first = await h.call("list_conversations", ASK);
    expect(Date.now() - t0).toBeLessThan(BUDGET_S * 1000);
    expect(first.isError, first.text).toBe(false);
    expect(first.data.complete).toBe(false);
    expect(first.data.total).toBeUndefined();
    expect(first.data.ask_again_in_s).toBeGreaterThan(0);
    expect(first.data.note).toMatch(/Still reading the orders of shop .* so far; chats found to have ordered are at least these, those found not to may have orders not read yet; ask again in about \d+ s/);

    let last = first;
    for (let i = 0; i < 6 && last.data.complete !== true; i++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(3, Number(last.data.ask_again_in_s ?? 3)) * 1000));
      last = await h.call("list_conversations", ASK);
    }
    expect(last.data.complete).toBe(true);
    const [since, until] = lastWeek();
    const mayKids = h.sandbox.messaging.pages.find((p) => p.name.startsWith("Mây Kids"))!;
    const never = h.sandbox.messaging.conversations.filter((c) => {
      const wrote = c.page_id === mayKids.id && !c.is_removed ? customerWroteAt(h.sandbox, c) : undefined;
      return wrote !== undefined && wrote >= since && wrote < until && salesOf(h.sandbox, c).length === 0;
    });
    expect(last.data.total).toBe(never.length);
  }, 60_000);

  it("reads the page customers on past the call that began it: the next call finds them read", async () => {
    const own = await startHarness({ sandbox: { ratePerSecond: 100_000 }, config: { callBudgetSeconds: BUDGET_S } });
    try {
      // Each list page of page customers takes 3 s: the biggest page's walk outlasts the call.
      const path = /\/page_customers$/;
      own.sandbox.server.injectFault({ method: "GET", path, kind: "latency", delayMs: 3_000, times: 1_000 });
      const reads = () => own.sandbox.server.requests.filter((q) => path.test(q.path)).length;
      const first = await own.call("list_conversations", ASK);
      expect(first.isError, first.text).toBe(false);
      expect(first.data.complete).toBe(false);
      expect(first.data.note).toContain("customers were read in part by the deadline (the read goes on)");
      const atAnswer = reads();
      // No call now: the walk goes on by itself.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(reads()).toBeGreaterThan(atAnswer);
    } finally {
      await own.close();
    }
  }, 30_000);
});
