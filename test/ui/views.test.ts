import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { build } from "esbuild";
import { type BrowserContext, chromium, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "../../src/format/money.js";
import { CLI, cleanEnv, requireBuild } from "../helpers/spawn.js";

// Each chart view in a real browser: Debian's Chromium, headless, loads the view's ui:// resource
// through a test host built on ext-apps' AppBridge, gets a real tool result from the built server
// on the demo shop, and the test reads the drawn DOM. A screenshot of each lands in test/artifacts/.

const ARTIFACTS = fileURLToPath(new URL("../artifacts/", import.meta.url));
const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary result shapes
type Data = Record<string, any>;

let client: Client;
let context: BrowserContext;
let page: Page;
let profile: string;
let hostJs: string;

beforeAll(async () => {
  requireBuild();
  client = new Client({ name: "views-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "--demo", "--toolsets", "all"], env: cleanEnv(), stderr: "pipe" }));
  const bundled = await build({ entryPoints: [fileURLToPath(new URL("./host.ts", import.meta.url))], bundle: true, write: false, format: "iife", platform: "browser", logLevel: "warning" });
  hostJs = bundled.outputFiles[0]!.text;
  profile = await mkdtemp(join(tmpdir(), "pancake-chromium-"));
  // Fails, never skips, when Chromium is missing or cannot start (.ci/run installs it).
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 720, height: 900 } });
  page = await context.newPage();
  await mkdir(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await client?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

async function callTool(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result;
}

async function viewOf(tool: string): Promise<string> {
  const { tools } = await client.listTools();
  const uri = (tools.find((t) => t.name === tool)?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
  expect(uri, `${tool} lists _meta.ui.resourceUri`).toMatch(/^ui:\/\//);
  const { contents } = await client.readResource({ uri: uri! });
  expect(contents[0]!.mimeType).toBe("text/html;profile=mcp-app");
  return (contents[0] as { text: string }).text;
}

/** Shows a tool's result in its view through the test host; returns the view's frame. */
async function show(tool: string, args: Record<string, unknown>, opts: { theme?: "light" | "dark"; width?: number; result?: CallToolResult } = {}): Promise<{ frame: Frame; data: Data }> {
  const html = await viewOf(tool);
  const result = opts.result ?? (await callTool(tool, args));
  await page.setViewportSize({ width: opts.width ?? 720, height: 900 });
  await page.setContent(`<!doctype html><html><body style="margin:0"><script>${hostJs.replace(/<\/script/gi, "<\\/script")}</script></body></html>`);
  await page.evaluate((show) => (window as unknown as { showView(s: unknown): Promise<void> }).showView(show), { html, input: args, result: result as Record<string, unknown>, theme: opts.theme ?? "light" });
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  await frame.waitForSelector("#root > *");
  return { frame, data: result.structuredContent as Data };
}

async function shot(name: string): Promise<void> {
  // Let the host apply the view's last size report before the picture.
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

const values = (frame: Frame, selector: string) => frame.$$eval(selector, (els) => els.map((e) => Number(e.getAttribute("data-value"))));
const texts = (frame: Frame, selector: string) => frame.$$eval(selector, (els) => els.map((e) => e.textContent ?? ""));
const card = (frame: Frame, key: string) => frame.$eval(`[data-total="${key}"] .v`, (e) => e.textContent);
const int = (n: number) => new Intl.NumberFormat("vi-VN").format(n);

describe("chart views in headless Chromium", () => {
  it("inbox statistics: one point per day and figure, totals and pages as returned", async () => {
    const { frame, data } = await show("get_page_stats", {});
    const rows = [...data.rows].sort((a: Data, b: Data) => a.date.localeCompare(b.date));
    expect(await values(frame, '.point[data-series="customer_inbox_count"]')).toEqual(rows.map((r: Data) => r.customer_inbox_count));
    expect(await values(frame, '.point[data-series="new_customer_count"]')).toEqual(rows.map((r: Data) => r.new_customer_count));
    expect(await frame.$$eval(".point", (p) => new Set(p.map((e) => e.getAttribute("data-series"))).size)).toBe(4);
    expect(await card(frame, "customer_inbox_count")).toBe(int(data.totals.customer_inbox_count));
    expect(await texts(frame, ".row .name")).toEqual(
      [...data.pages].sort((a: Data, b: Data) => b.customer_inbox_count - a.customer_inbox_count).map((p: Data) => p.name),
    );
    expect(await frame.textContent("h1")).toBe("Thống kê trang: Tin nhắn");
    await shot("page-stats");
  });

  it("staff performance: ranked bars with response times", async () => {
    const { frame, data } = await show("get_staff_stats", {});
    expect(await texts(frame, ".row .name")).toEqual(data.staff.map((s: Data) => s.name));
    expect(await values(frame, '.bar[data-series="messages"]')).toEqual(data.staff.map((s: Data) => s.messages));
    const first = (await texts(frame, ".row .val"))[0]!;
    expect(first).toContain(`${int(data.staff[0].messages)} tin`);
    expect(first).toMatch(/phản hồi TB \d+ (giờ|phút|giây)/);
    await shot("staff-stats");
  });

  it("sales by day: a revenue column and an order point per day, totals in VND", async () => {
    const { frame, data } = await show("get_sales_analytics", {});
    expect(await values(frame, '.bar[data-series="price"]')).toEqual(data.rows.map((r: Data) => r.price));
    expect(await values(frame, '.point[data-series="order_count"]')).toEqual(data.rows.map((r: Data) => r.order_count));
    expect(await card(frame, "price")).toBe(formatMoney(data.totals.success.price, "VND"));
    expect(await card(frame, "price")).toMatch(/^[\d.]+\s₫$/);
    await shot("sales");
  });

  it("sales by source, top 3: ranked bars named by the split", async () => {
    const { frame, data } = await show("get_sales_analytics", { split_by: ["Order.source"], limit: 3 });
    expect(await texts(frame, ".row .name")).toEqual(data.rows.map((r: Data) => r["Order.source"]));
    expect(await values(frame, '.bar[data-series="price"]')).toEqual(data.rows.map((r: Data) => r.price));
    expect(await frame.textContent("h1")).toBe("Doanh số theo nguồn đơn");
    if (data.truncated) expect(await frame.textContent(".note")).toContain(`${data.rows.length}/`);
  });

  it("ad statistics: spend against return per campaign, at phone width in the dark theme", async () => {
    const { frame, data } = await show("get_ad_stats", {}, { theme: "dark", width: 380 });
    const spent = data.rows.filter((r: Data) => r.spend > 0);
    expect(await values(frame, '.bar[data-series="spend"]')).toEqual(spent.map((r: Data) => r.spend));
    expect(await values(frame, '.bar[data-series="purchase_value"]')).toEqual(spent.map((r: Data) => r.purchase_value));
    expect(await card(frame, "spend")).toBe(formatMoney(data.totals.spend, "VND"));
    expect(await frame.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    // Nothing overflows the phone-width frame.
    expect(await frame.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // A page that cannot read ads is named by its name.
    if (data.failed_pages) expect(await frame.textContent(".note.bad")).toContain(data.failed_pages[0].page_name);
    await shot("ad-stats");
  });

  it("daily report: sales cards, inbox per page and top staff of one day", async () => {
    const { frame, data } = await show("get_daily_report", { date: "yesterday" });
    expect(await card(frame, "price")).toBe(formatMoney(data.sales.price, "VND"));
    expect(await card(frame, "order_count")).toBe(int(data.sales.order_count));
    expect(await values(frame, '.bar[data-series="customer_inbox_count"]')).toEqual(data.inbox.map((p: Data) => p.messages.customer_inbox_count));
    const staffShown = data.staff.top_staff.filter((s: Data) => s.messages > 0);
    expect(await values(frame, '.bar[data-series="messages"]')).toEqual(staffShown.map((s: Data) => s.messages));
    await shot("daily-report");
  });

  it("names are text, never markup, and no data is in the view's HTML", async () => {
    const html = await viewOf("get_staff_stats");
    expect(html).not.toContain("Nguyễn");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    const hostile = '<img src=x onerror="document.title=\'pwned\'">';
    const data = { page_ids: ["1"], range: {}, totals: {}, staff: [{ user_id: "u1", name: hostile, messages: 3, conversations: 1, avg_response_seconds: 60 }] };
    const result: CallToolResult = { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
    const { frame } = await show("get_staff_stats", {}, { result });
    expect(await texts(frame, ".row .name")).toEqual([hostile]);
    expect(await frame.$$("img")).toHaveLength(0);
    expect(await frame.title()).not.toBe("pwned");
  });
});

describe("hosts without MCP Apps", () => {
  it("get the same result as before: text is the JSON of structuredContent, nothing about the view in it", async () => {
    const result = await callTool("get_page_stats", {});
    expect(result.content).toHaveLength(1);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    expect(result._meta).toBeUndefined();
  });
});
