import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { PACE } from "../../src/shop-index/read-pace.js";
import { waitingByPage } from "../helpers/awaiting.js";
import { type Harness, startHarness } from "../helpers/harness.js";

// A first read of a big page's conversations outlasts what a client waits for one call (Claude
// Desktop gives up at 60 s): the call answers within its budget with what was read, saying how far
// the read got and when to ask again, and the read goes on by itself, past the answer and past a
// cancel, once however many calls want it. Here the demo shop ten times over (2,000 conversations
// on its biggest page: 34 list calls at the platform's 5 a second) and a 5 s budget.

const BUDGET_S = 5;
const SHOP = { scale: 10, ratePerSecond: 5 };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const conversationReads = (sandbox: Sandbox) => sandbox.server.requests.filter((q) => /\/pages\/[^/]+\/conversations$/.test(q.path)).length;
const biggestPage = (sandbox: Sandbox) => {
  const counts = sandbox.messaging.pages.map((p) => ({ id: p.id, count: sandbox.messaging.conversations.filter((c) => c.page_id === p.id).length }));
  return counts.reduce((a, b) => (b.count > a.count ? b : a));
};
const listCalls = (sandbox: Sandbox, pageId: string) => sandbox.server.requests.filter((q) => q.path.endsWith(`/v2/pages/${pageId}/conversations`)).length;
const countCalls = (sandbox: Sandbox, pageId: string) => sandbox.server.requests.filter((q) => q.path.endsWith(`/v1/pages/${pageId}/conversations`)).length;

/**
 * One read of the biggest page, not one per call: the list calls it needs (60 conversations a
 * call), one refresh a call after, and a few counts (how many are left, then the hourly check).
 */
function expectOneRead(sandbox: Sandbox, calls: number) {
  const page = biggestPage(sandbox);
  // A few more for reads that met a 429 (paced from when they are sent) and were tried again.
  expect(listCalls(sandbox, page.id)).toBeLessThanOrEqual(Math.floor(page.count / 60) + 1 + calls + 3);
  expect(countCalls(sandbox, page.id)).toBeLessThanOrEqual(7);
}

type Groups = { page_id: string; count: number }[];
const byPage = (data: { groups: Groups }) => new Map(data.groups.map((g) => [g.page_id, g.count]));

/** Asks until the answer is complete, as an assistant told to ask again would; every call's time and the answers. */
async function untilComplete(harness: Harness, args: Record<string, unknown>, waitS = 3) {
  const calls: { ms: number; data: Record<string, unknown> }[] = [];
  for (;;) {
    const t0 = Date.now();
    const r = await harness.call("list_conversations", args);
    expect(r.isError, r.text).toBe(false);
    calls.push({ ms: Date.now() - t0, data: r.data });
    if (r.data.complete === true) return calls;
    expect(calls.length, "asked again past the read's own estimate").toBeLessThan(6);
    await new Promise((resolve) => setTimeout(resolve, Math.min(waitS, Number(r.data.ask_again_in_s ?? waitS)) * 1000));
  }
}

describe("a call within its time budget, the read going on", () => {
  it("answers in time with lower bounds and how far it got, then exactly, from one read", async () => {
    h = await startHarness({ sandbox: SHOP, config: { callBudgetSeconds: BUDGET_S } });
    const truth = waitingByPage(h.sandbox);
    const calls = await untilComplete(h, { awaiting_reply: true, group_by: ["page"] });

    expect(calls.length).toBeGreaterThan(1);
    // Each call answered by its budget (a margin for a loaded machine's timers), none waited for the read.
    for (const call of calls) expect(call.ms).toBeLessThan(BUDGET_S * 1000 + 2_000);
    const first = calls[0]!.data as { groups: Groups; total: number; ask_again_in_s: number; note: string; pages: { page_id: string; complete: boolean; reading?: { read: number } }[] };
    expect(first.ask_again_in_s).toBeGreaterThan(0);
    expect(first.note).toMatch(/Still reading the conversations of page .*at least as high.*ask again in about \d+ s/);
    // What was read so far counts: every figure a lower bound of the truth.
    for (const [page, count] of byPage(first)) expect(count).toBeLessThanOrEqual(truth.get(page) ?? 0);
    const reading = first.pages.filter((p) => !p.complete);
    expect(reading.length).toBeGreaterThan(0);
    for (const p of reading) expect(p.reading?.read).toBeGreaterThan(0);

    const last = calls.at(-1)!.data as { groups: Groups; total: number };
    expect(byPage(last)).toEqual(truth);
    expect(last.total).toBe([...truth.values()].reduce((a, b) => a + b, 0));
    // One read (how fast it goes is the bench's to measure: npm run bench -- --only="data scale").
    expectOneRead(h.sandbox, calls.length);
  });

  it("says roughly how many there are once the read has counted them", async () => {
    h = await startHarness({ sandbox: SHOP, config: { callBudgetSeconds: BUDGET_S } });
    // Asked again at once, each call answers at its budget while the read goes on.
    const calls = await untilComplete(h, { awaiting_reply: true, group_by: ["page"] }, 0);
    const biggest = biggestPage(h.sandbox);
    const estimates = calls.flatMap((c) => (c.data.pages as { page_id: string; reading?: { of_about?: number } }[]).flatMap((p) => (p.page_id === biggest.id && p.reading?.of_about ? [p.reading.of_about] : [])));
    expect(estimates.length).toBeGreaterThan(0);
    for (const about of estimates) expect(Math.abs(about - biggest.count) / biggest.count).toBeLessThan(0.1);
  });

  it("says when to ask again from the read's recent pace, not its pace since it began", async () => {
    const was = { ...PACE };
    Object.assign(PACE, { windowMs: 2_000, sampleMs: 200 });
    try {
      h = await startHarness({ sandbox: { ...SHOP, ratePerSecond: 100_000 }, config: { callBudgetSeconds: 10 } });
      const page = biggestPage(h.sandbox);
      // The read's first list calls are slow (another read shared the machine), the rest steady.
      const list = `/v2/pages/${page.id}/conversations`;
      h.sandbox.server.injectFault({ path: list, kind: "latency", delayMs: 2_500, times: 2 });
      h.sandbox.server.injectFault({ path: list, kind: "latency", delayMs: 300, times: 1_000 });
      const t0 = Date.now();
      const r = await h.call("list_conversations", { page_ids: [page.id], awaiting_reply: true, group_by: ["page"] });
      const elapsedS = (Date.now() - t0) / 1000;
      expect(r.data.complete).toBe(false);
      const reading = (r.data.pages as { reading?: { read: number; of_about?: number } }[])[0]!.reading!;
      expect(reading.of_about).toBeGreaterThan(reading.read);
      // At the pace since the call began (the slow calls among it) the read would seem twice as long.
      const sinceBegun = (reading.of_about! - reading.read) / (reading.read / elapsedS);
      expect(r.data.ask_again_in_s).toBeLessThan(0.7 * sinceBegun);
    } finally {
      Object.assign(PACE, was);
    }
  });

  it("goes on reading past a client's cancel: the next call finds it read", async () => {
    h = await startHarness({ sandbox: SHOP, config: { callBudgetSeconds: 60 } });
    const truth = waitingByPage(h.sandbox);
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 1_500);
    const cancelled = h.client.callTool({ name: "list_conversations", arguments: { awaiting_reply: true, group_by: ["page"] } }, { signal: cancel.signal });
    await expect(cancelled).rejects.toThrow();
    const readAtCancel = conversationReads(h.sandbox);
    // Nobody asks for a while: the read goes on by itself.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(conversationReads(h.sandbox)).toBeGreaterThan(readAtCancel + 5);
    const r = await h.call("list_conversations", { awaiting_reply: true, group_by: ["page"] });
    expect(r.data.complete, `${r.text}\n${h.logs.filter((l) => /stopped|failed|cancel/.test(l)).join("\n")}`).toBe(true);
    expect(byPage(r.data)).toEqual(truth);
    expectOneRead(h.sandbox, 2);
  });

  it("reads once for two sessions asking the same cold question at once", async () => {
    h = await startHarness({ sandbox: SHOP, config: { callBudgetSeconds: 60 } });
    const truth = waitingByPage(h.sandbox);
    const other = await h.session();
    const args = { name: "list_conversations", arguments: { awaiting_reply: true, group_by: ["page"] } };
    const [a, b] = await Promise.all([h.client.callTool(args), other.callTool(args)]);
    for (const r of [a, b]) {
      expect((r.structuredContent as { complete: boolean }).complete).toBe(true);
      expect(byPage(r.structuredContent as { groups: Groups })).toEqual(truth);
    }
    expectOneRead(h.sandbox, 1);
  });

  it("keeps what a server read when it stops mid-read: the next one goes on from there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pancake-midread-"));
    const onDisk = { callBudgetSeconds: BUDGET_S, index: { mode: "disk" as const, dir, refreshSeconds: 0, maxRows: 300_000, preload: false } };
    h = await startHarness({ sandbox: SHOP });
    const sandbox = h.sandbox;
    const truth = waitingByPage(sandbox);
    const page = biggestPage(sandbox);
    const first = await startHarness({ shared: sandbox, config: onDisk });
    const partial = await first.call("list_conversations", { awaiting_reply: true, group_by: ["page"] });
    expect(partial.data.complete).toBe(false);
    // The server ends (the desktop app quits): what it read is written as it goes, and as it ends.
    await first.close();
    const readBefore = listCalls(sandbox, page.id);
    expect(readBefore).toBeGreaterThan(8);
    const next = await startHarness({ shared: sandbox, config: onDisk });
    try {
      const calls = await untilComplete(next, { awaiting_reply: true, group_by: ["page"] });
      expect(byPage(calls.at(-1)!.data as { groups: Groups })).toEqual(truth);
      // The new process read only what the first had not: the whole read's list calls, less those made before.
      const needed = Math.floor(page.count / 60) + 1;
      expect(listCalls(sandbox, page.id) - readBefore).toBeLessThanOrEqual(needed - readBefore + calls.length + 4);
    } finally {
      await next.close();
    }
  });

  it("keeps what was read when the upstream fails mid-read, says what failed, and the next call goes on", async () => {
    h = await startHarness({ sandbox: SHOP, config: { callBudgetSeconds: 60, retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 10 } } });
    const truth = waitingByPage(h.sandbox);
    const sandbox = h.sandbox;
    // The biggest page's 12th list call on, the platform fails (every try of it, and the read's own tries after).
    const page = biggestPage(sandbox);
    let seen = 0;
    const stop = sandbox.server.onRequest((q) => {
      if (q.path.endsWith(`/v2/pages/${page.id}/conversations`) && ++seen === 11) {
        sandbox.server.injectFault({ path: `/v2/pages/${page.id}/conversations`, kind: "status", status: 502, body: { success: false, message: "Bad gateway" }, times: 6 });
      }
    });
    const failed = await h.call("list_conversations", { awaiting_reply: true, group_by: ["page"] });
    stop();
    expect(failed.isError, failed.text).toBe(false);
    expect(failed.data.complete, failed.text.slice(0, 3000)).toBe(false);
    expect(failed.text).toMatch(/the read stopped \(.*502.*\); asking again goes on from where it got/);
    const stopped = (failed.data.pages as { reading?: { read: number; stopped?: string } }[]).find((p) => p.reading?.stopped);
    expect(stopped?.reading?.read).toBeGreaterThan(0);
    for (const [page, count] of byPage(failed.data)) expect(count).toBeLessThanOrEqual(truth.get(page) ?? 0);

    const before = listCalls(sandbox, page.id);
    const again = await h.call("list_conversations", { awaiting_reply: true, group_by: ["page"] });
    expect(again.data.complete).toBe(true);
    expect(byPage(again.data)).toEqual(truth);
    // It went on from where it got: the 10 calls read before the failure were not made again.
    expect(listCalls(sandbox, page.id) - before).toBeLessThanOrEqual(Math.floor(page.count / 60) + 1 - 10 + 4);
  });

  it("answers a read stuck upstream by its budget, saying so, and serves on", async () => {
    h = await startHarness({ config: { callBudgetSeconds: BUDGET_S } });
    h.sandbox.server.injectFault({ method: "GET", path: /\/shops$/, kind: "latency", delayMs: 9_000 });
    const t0 = Date.now();
    const stuck = await h.call("list_shops");
    // Answered at its budget, long before the upstream's 9 s (a margin for a loaded machine's timers).
    expect(Date.now() - t0).toBeLessThan(BUDGET_S * 1000 + 2_000);
    expect(stuck.isError).toBe(true);
    expect(stuck.text).toMatch(/list_shops did not finish within the 5 s a call may take .* nothing was changed/);
    expect(stuck.text).toMatch(/Next step: Ask for less/);
    const next = await h.call("list_shops");
    expect(next.isError, next.text).toBe(false);
  });
});
