import { afterAll, beforeAll, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { type Harness, startHarness } from "../helpers/harness.js";

// Page tokens only: no user token, no POS key.
const NOW = new Date("2026-01-02T03:00:00Z");

let h: Harness;
beforeAll(async () => {
  const pageAccessTokens = new Sandbox({ now: NOW }).credentials.pageTokens;
  h = await startHarness({ sandbox: { now: NOW }, credentials: false, config: { pageAccessTokens } });
});
afterAll(() => h.close());

it("leaves sales out and says so when the POS is not configured", async () => {
  const pages = h.sandbox.messaging.pages.map((p) => p.id);
  const result = await h.client.getPrompt({ name: "daily_shop_report", arguments: { date: "2026-01-01", page_ids: pages.join(",") } });
  const message = result.messages[0]!;
  const text = message.content.type === "text" ? message.content.text : "";
  expect(text).toMatch(/Sales figures are not included: the POS is not configured \(PANCAKE_POS_API_KEY\)/);
  const data = JSON.parse(text.slice(text.indexOf("\n\n{") + 2));
  expect(data.sales).toBeUndefined();
  expect(data.inbox).toHaveLength(pages.length);
  expect(data.inbox[0].messages.customer_inbox_count).toBeGreaterThan(0);
  expect(data.staff.totals.inbox_count).toBeGreaterThan(0);
  expect(data.staff.top_staff[0].order_count).toBeUndefined();
});
