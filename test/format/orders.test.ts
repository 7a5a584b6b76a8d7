import { describe, expect, it } from "vitest";
import type { PosOrder } from "../../src/clients/schemas/pos.js";
import { orderDetail } from "../../src/format/orders.js";

// An order's address reads in the form it was saved in (render_type): the vendor's records carry
// an old and a new text side by side.

const order = (shipping_address: Record<string, unknown>) => ({ id: 1, shipping_address }) as unknown as PosOrder;

describe("orderDetail address", () => {
  it("reads a three-tier record by its full address, not the partial new text beside it", () => {
    // The order example of pos-openapi.yaml (e-invoice list), as the POS returns it.
    const detail = orderDetail(
      order({
        address: "123",
        commnue_name: "Phường Cống Vị",
        commune_id: "1010115",
        district_id: "10101",
        full_address: "123, Phường Cống Vị, Quận Ba Đình, Hà Nội",
        new_full_address: "123, Hà Nội",
        new_province_id: "84_VN101",
        province_id: "101",
        render_type: "old",
      }),
      "Asia/Ho_Chi_Minh",
    );
    expect(detail.address?.full_address).toBe("123, Phường Cống Vị, Quận Ba Đình, Hà Nội");
  });

  it("reads a two-tier record by its new full address", () => {
    const detail = orderDetail(
      order({
        address: "12 Lê Lợi",
        commune_id: "84_VN129001",
        district_id: null,
        full_address: "12 Lê Lợi, Thành phố Hồ Chí Minh",
        new_full_address: "12 Lê Lợi, Phường Sài Gòn, Thành phố Hồ Chí Minh",
        new_province_id: "84_VN129",
        province_id: "84_VN129",
        render_type: "new",
      }),
      "Asia/Ho_Chi_Minh",
    );
    expect(detail.address?.full_address).toBe("12 Lê Lợi, Phường Sài Gòn, Thành phố Hồ Chí Minh");
  });
});
