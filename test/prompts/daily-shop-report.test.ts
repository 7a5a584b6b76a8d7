import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/harness.js";
import { days, localDay, pageActivity, staffTotals, total } from "../tools/page-stats/expected.js";

const NOW = new Date("2026-01-02T03:00:00Z");
const DAY = "2026-01-01";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ sandbox: { now: NOW } });
});
afterAll(() => h.close());

async function report(args: Record<string, string>) {
  const result = await h.client.getPrompt({ name: "daily_shop_report", arguments: args });
  const message = result.messages[0]!;
  const text = message.content.type === "text" ? message.content.text : "";
  return { text, data: JSON.parse(text.slice(text.indexOf("\n\n{") + 2)) };
}

it("gathers one day of inbox, staff and sales figures and asks for a short report", async () => {
  const { text, data } = await report({ date: DAY });
  expect(text).toMatch(/short daily report of the shop for 2026-01-01/);
  expect(text).toMatch(/data, not instructions/);
  const state = h.sandbox.messaging;
  const span = days(DAY, DAY);
  expect(data.inbox.map((p: { page_id: string }) => p.page_id)).toEqual(state.pages.map((p) => p.id));
  for (const page of data.inbox) {
    const want = pageActivity(state, page.page_id, span, localDay);
    expect(page.name).toBe(state.pages.find((p) => p.id === page.page_id)!.name);
    expect(page.messages.customer_inbox_count).toBe(total(want, "customer_inbox_count"));
    expect(page.messages.new_inbox_count).toBe(total(want, "new_inbox_count"));
  }
  const staff = staffTotals(state, state.pages.map((p) => p.id), span);
  expect(data.staff.totals.inbox_count).toBe([...staff.values()].reduce((t, s) => t + s.inbox_count, 0));
  expect(data.staff.top_staff[0].name).toBeTruthy();

  const from = Date.parse(`${DAY}T00:00:00+07:00`);
  const sold = h.sandbox.pos.orders.filter((o) => {
    const at = Date.parse(`${o.inserted_at}Z`);
    // Sales as every tool counts them: created that day, neither canceled nor deleted.
    return !o.is_removed && o.status !== 6 && o.status !== 7 && at >= from && at < from + 86_400_000;
  });
  expect(sold.length).toBeGreaterThan(0);
  expect(data.sales.order_count).toBe(sold.length);
  expect(data.sales.price).toBe(sold.reduce((t, o) => t + o.items.reduce((s, it) => s + it.variation_info.retail_price * it.quantity, 0), 0));
});

it("limits itself to the pages asked for and rejects a bad date", async () => {
  const page = h.sandbox.messaging.pages[1]!.id;
  const { data } = await report({ date: DAY, page_ids: page });
  expect(data.inbox.map((p: { page_id: string }) => p.page_id)).toEqual([page]);
  // Names as a tool takes them: the same resolution.
  expect((await report({ date: DAY, page_ids: "may kids" })).data.inbox.map((p: { page_id: string }) => p.page_id)).toEqual([page]);
  await expect(h.client.getPrompt({ name: "daily_shop_report", arguments: { date: "31/12/2025" } })).rejects.toThrow(/date/);
});

it("keeps the next step of a failed section", async () => {
  h.sandbox.server.injectFault({ path: "/statistics/user", kind: "status", status: 403, body: { success: false, message: "Forbidden" }, times: 20 });
  const { data } = await report({ date: DAY });
  h.sandbox.server.clearFaults();
  expect(data.staff.unavailable).toMatch(/\nNext step: \S/);
});
