import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const shopPath = () => `/pos/api/v1/shops/${h.sandbox.credentials.shopId}`;
const sent = (method: string, suffix: string) => h.sandbox.server.requests.filter((q) => q.method === method && q.path.endsWith(suffix));

describe("find_api_operations", () => {
  it("finds operations by keyword, with their parameters", async () => {
    const r = await h.call("find_api_operations", { query: "supplier list" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.operations[0]).toMatchObject({ id: "pos GET /shops/{shop_id}/supplier", summary: "Supplier list" });
    const vouchers = await h.call("find_api_operations", { query: "create voucher", api: "pos", limit: 3 });
    expect(vouchers.data.operations.map((o: { id: string }) => o.id)).toContain("pos POST /shops/{shop_id}/vouchers");
    const voucher = vouchers.data.operations.find((o: { id: string }) => o.id === "pos POST /shops/{shop_id}/vouchers");
    expect(voucher.body).toContain("name*: string");
    expect(voucher.body).toContain("promo_code_info*: {discount*: integer");
  });

  it("looks one up by id, with the whole body and the curated tool to prefer", async () => {
    const r = await h.call("find_api_operations", { query: "POS post /SHOPS/{shop_id}/orders" });
    expect(r.data.operations).toHaveLength(1);
    expect(r.data.operations[0]).toMatchObject({ id: "pos POST /shops/{shop_id}/orders", use_tool: "create_order" });
    const seed = await h.call("find_api_operations", { query: "messaging GET /v1/statistics/user" });
    expect(seed.data.operations[0]).toMatchObject({ documented_in: "seed spec" });
    const none = await h.call("find_api_operations", { query: "zzzz" });
    expect(none.data.operations).toEqual([]);
  });
});

describe("call_api_read", () => {
  it("calls a documented read with the shop's key and the shop id filled in", async () => {
    const r = await h.call("call_api_read", { operation: "pos GET /shops/{shop_id}/brand", params: { page: 1, page_size: "5", search: "Áo" } });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.operation).toBe("pos GET /shops/{shop_id}/brand");
    const request = sent("GET", `${shopPath()}/brand`).at(-1)!;
    expect(request.query).toEqual({ page: ["1"], page_size: ["5"], search: ["Áo"], api_key: [h.sandbox.credentials.posApiKey] });
    expect(r.text).not.toContain(h.sandbox.credentials.posApiKey);
  });

  it("checks parameters before sending: unknown, missing, mistyped, in the path", async () => {
    const before = h.sandbox.server.requests.length;
    const unknown = await h.call("call_api_read", { operation: "pos GET /shops/{shop_id}/brand", params: { sort: "name" } });
    expect(unknown.text).toMatch(/^Error \(invalid_input\): params\.sort: is not a parameter of this operation/);
    const missing = await h.call("call_api_read", { operation: "pos GET /shops/{shop_id}/customers/point_logs" });
    expect(missing.text).toContain("params.shop_customer_id: is required");
    const typed = await h.call("call_api_read", { operation: "pos GET /shops/{shop_id}/brand", params: { page: "first" } });
    expect(typed.text).toContain('params.page: expected integer, got "first"');
    const outOfPath = await h.call("call_api_read", { operation: "pos GET /shops/{shop_id}/vouchers/{voucher_id}", params: { voucher_id: ".." } });
    expect(outOfPath.isError).toBe(true);
    expect(h.sandbox.server.requests.length).toBe(before);
  });

  it("takes reads only, and names a write's tool", async () => {
    const write = await h.call("call_api_read", { operation: "pos POST /shops/{shop_id}/vouchers" });
    expect(write.text).toContain("operation: changes data");
    expect(write.text).toContain("call_api_write");
    const unknown = await h.call("call_api_read", { operation: "pos GET /shops/{shop_id}/nothing" });
    expect(unknown.text).toContain("find_api_operations");
  });

  it("calls page-token operations with the page's token and sanitizes the answer", async () => {
    const page = h.sandbox.messaging.pages[0]!;
    h.sandbox.server.injectFault({
      method: "GET",
      path: "/export_data",
      kind: "status",
      status: 200,
      body: { success: true, data: [{ id: "c1", from: { name: "Lan\u200b<script>x</script> <b>VIP</b>" } }] },
    });
    const r = await h.call("call_api_read", {
      operation: "messaging GET /public_api/v1/pages/{page_id}/export_data",
      params: { page_id: page.id, since: 1_700_000_000, until: 1_700_086_400, action: "conversations_from_ads" },
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.result.data[0].from.name).toBe("Lan VIP");
    expect(sent("GET", `/pages/${page.id}/export_data`).at(-1)!.query.page_access_token).toEqual([page.settings.page_access_token]);
    expect(r.text).not.toContain(page.settings.page_access_token);
  });

  it("cuts a result too big for one answer, and says how to get the rest", async () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({ id: `s${i}`, name: `Nhà cung cấp ${i}`.padEnd(120, ".") }));
    h.sandbox.server.injectFault({ method: "GET", path: "/supplier", kind: "status", status: 200, body: { success: true, data: rows } });
    const r = await h.call("call_api_read", { operation: "pos GET /shops/{shop_id}/supplier" });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.result.data.length).toBeLessThan(400);
    expect(r.data.result_cut).toMatch(/result\.data: first \d+ of 400 entries/);
    expect(r.text.length).toBeLessThanOrEqual(24_000);
  });
});

describe("call_api_write", () => {
  it("checks the body against the vendor's schema before anything is sent", async () => {
    const before = sent("POST", `${shopPath()}/vouchers`).length;
    const bad = await h.call("call_api_write", { operation: "pos POST /shops/{shop_id}/vouchers", body: { name: "Giảm 20k", promo_code_info: { discount: 20_000 }, color: "red" } });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("body.promo_code_info.is_percent: is required");
    expect(bad.text).toContain("body.color: is not a documented field");
    expect(sent("POST", `${shopPath()}/vouchers`).length).toBe(before);
    const body = { name: "Giảm 20k", promo_code_info: { discount: 20_000, is_percent: false }, start_time: "2026-12-01T00:00:00Z", end_time: "2026-12-31T00:00:00Z" };
    const ok = await h.call("call_api_write", { operation: "pos POST /shops/{shop_id}/vouchers", body });
    expect(ok.isError, ok.text).toBe(false);
    expect(sent("POST", `${shopPath()}/vouchers`).at(-1)!.body).toEqual(body);
  });

  it("is never retried", async () => {
    h.sandbox.server.injectFault({ method: "POST", path: "/tags_products", kind: "status", status: 502, times: 3 });
    const before = sent("POST", `${shopPath()}/tags_products`).length;
    const r = await h.call("call_api_write", { operation: "pos POST /shops/{shop_id}/tags_products", body: { name: "Mới" } });
    expect(r.isError).toBe(true);
    expect(sent("POST", `${shopPath()}/tags_products`).length).toBe(before + 1);
  });

  it("leaves a curated tool's write to that tool, and never regenerates a page token", async () => {
    const order = await h.call("call_api_write", { operation: "pos POST /shops/{shop_id}/orders", body: { items: [] } });
    expect(order.text).toContain("is a change create_order makes");
    const token = await h.call("call_api_write", { operation: "messaging POST /v1/pages/{page_id}/generate_page_access_token", params: { page_id: "1" } });
    expect(token.text).toContain("invalidates the page's current token");
    expect(token.text).toContain("only generate_page_access_token (toolset pages), with confirm, does it");
    const read = await h.call("call_api_write", { operation: "pos GET /shops/{shop_id}/supplier" });
    expect(read.text).toContain("operation: is a read");
  });
});

describe("with the api toolset beside the default tools, or alone", () => {
  const only = useHarness({ sandbox: { ratePerSecond: 10_000 }, config: { toolsets: ["default", "api"] } });

  it("refuses a curated tool's write even when that tool's toolset is not named (it was sent before)", async () => {
    const c = only.sandbox.messaging.conversations.find((x) => x.type === "INBOX")!;
    const before = only.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/messages")).length;
    for (const operation of [
      "messaging POST /v1/pages/{page_id}/conversations/{conversation_id}/messages",
      "messaging POST /public_api/v1/pages/{page_id}/conversations/{conversation_id}/messages",
    ]) {
      const r = await only.call("call_api_write", { operation, params: { page_id: c.page_id, conversation_id: c.id }, body: { action: "reply_inbox", message: "hi" } });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/Use reply_to_comment or send_inbox_message or send_private_reply/);
    }
    const order = await only.call("call_api_write", { operation: "pos POST /shops/{shop_id}/orders", body: { items: [] } });
    expect(order.text).toContain("Use create_order: it resolves names, checks the rules and asks the user where it must (enable_toolset orders if it is not listed)");
    expect(only.sandbox.server.requests.filter((q) => q.method === "POST" && q.path.endsWith("/messages")).length).toBe(before);
  });

  it("makes a write no curated tool makes, through the same checks", async () => {
    const body = { name: "Giảm 30k", promo_code_info: { discount: 30_000, is_percent: false }, start_time: "2026-12-01T00:00:00Z", end_time: "2026-12-31T00:00:00Z" };
    const r = await only.call("call_api_write", { operation: "pos POST /shops/{shop_id}/vouchers", body });
    expect(r.isError, r.text).toBe(false);
  });
});
