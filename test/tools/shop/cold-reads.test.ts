import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// Reference data read once and in parallel: a cold cache costs one round of requests, not one
// request after another, and a second call reads none of it again.

const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const gets = (path: RegExp) => h.sandbox.server.requests.filter((q) => q.method === "GET" && path.test(q.path));

describe("reference data on a cold cache", () => {
  it("reads a province's wards district by district at once, each answered after all were asked", async () => {
    const delayMs = 500;
    h.sandbox.server.injectFault({ path: "/geo/communes", kind: "latency", delayMs, times: Number.POSITIVE_INFINITY });
    const r = await h.call("lookup_address", { query: "Phường 1, hcm" });
    h.sandbox.server.clearFaults();
    expect(r.isError, r.text).toBe(false);
    const reads = gets(/\/geo\/communes$/);
    const hcm = h.sandbox.pos.geo.districts.filter((d) => d.province_id === "701");
    // Each old district's wards, and the post-2025 city's two-tier wards beside them.
    expect(reads.map((q) => (q.query.district_id ?? q.query.province_id)?.[0]).sort()).toEqual([...hcm.map((d) => d.id), "84_VN129"].sort());
    const times = reads.map((q) => q.at);
    // One after another, each would arrive a delay after the last; at once, all arrive before any answer.
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(delayMs);
  });

  it("reads no district list for a ward named without its province, and warns of no listener leak reading every province's wards", async () => {
    const warnings: Error[] = [];
    const warned = (w: Error) => warnings.push(w);
    process.on("warning", warned);
    const before = h.sandbox.server.requests.length;
    try {
      const r = await h.call("lookup_address", { query: "Phường Sài Gòn" });
      await new Promise((resolve) => setImmediate(resolve));
      expect(r.isError, r.text).toBe(false);
      expect(r.data.matches[0].commune.name).toBe("Phường Sài Gòn");
    } finally {
      process.off("warning", warned);
    }
    const reads = h.sandbox.server.requests.slice(before);
    // A ward's prefix names no district: only the post-2025 provinces' wards are read, each once.
    expect(reads.filter((q) => q.path.endsWith("/geo/districts"))).toEqual([]);
    const wards = reads.filter((q) => q.path.endsWith("/geo/communes")).map((q) => q.query.province_id?.[0]);
    expect(new Set(wards).size).toBe(wards.length);
    expect(wards.length).toBeGreaterThan(10);
    expect(warnings.map((w) => w.name)).not.toContain("MaxListenersExceededWarning");
  });

  it("reads analytics metrics, order tags and categories once for repeated calls, and no carriers for products", async () => {
    const before = { metrics: gets(/\/analytics\/(get_list_formula|get_analytic_fields)$/).length, tags: gets(/\/orders\/tags$/).length, categories: gets(/\/categories$/).length };
    for (let i = 0; i < 2; i++) await h.call("get_sales_analytics", { since: "2026-11-01", until: "2026-11-22" });
    const orders = h.sandbox.pos.orders.filter((o) => !o.is_removed && o.status === 1).slice(0, 2);
    for (const o of orders) await h.call("update_order", { order_id: o.id, add_tags: ["Giao gấp"] });
    for (const name of ["Áo A", "Áo B"]) await h.call("create_product", { name, weight: 100, category: "ao thun", variants: [{ price: 1000 }] });
    const partners = gets(/\/partners$/).length;
    await h.call("search_products", { search: "ao", limit: 5 });
    expect(gets(/\/analytics\/(get_list_formula|get_analytic_fields)$/).length - before.metrics).toBe(2);
    expect(gets(/\/orders\/tags$/).length - before.tags).toBe(1);
    expect(gets(/\/categories$/).length - before.categories).toBe(1);
    expect(gets(/\/partners$/).length).toBe(partners);
  });
});
