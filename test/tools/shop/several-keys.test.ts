import { describe, expect, it } from "vitest";
import { SHOP_ID } from "../../../src/sandbox/pos/seed-catalog.js";
import { useHarness } from "../../helpers/harness.js";

// Two shop-specific keys and no default key: each key lists its own shop.
const shopId = String(SHOP_ID);
const h = useHarness({
  sandbox: { ratePerSecond: 10_000, credentials: { posApiKey: "shop-key-3f9a" } },
  config: { posApiKeys: { [shopId]: "shop-key-3f9a", "777": "other-shop-key" } },
});

describe("several shop keys", () => {
  it("asks every key for its shops and makes the caller pick a shop", async () => {
    const faultFor = (id: number | string, name: string) =>
      h.sandbox.server.injectFault({ path: "/shops", kind: "status", status: 200, body: { shops: [{ id, name }], success: true } });
    faultFor(SHOP_ID, h.sandbox.pos.shop.name);
    faultFor(777, "Other shop");
    const r = await h.call("list_warehouses");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("shop_id");
    expect(r.text).toContain(shopId);
    expect(r.text).toContain("777");
    expect(h.sandbox.server.count("GET", `/pos/api/v1/shops/${shopId}/warehouses`)).toBe(0);
  });
});
