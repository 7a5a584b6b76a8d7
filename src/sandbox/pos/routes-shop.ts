import { asciiName } from "./geo-data.js";
import { type PosApi, bodyOf, boolParam, invalid, listParam, notFound, paged, requireParam } from "./api.js";
import { nextUuid } from "./state.js";
import { emptyStock } from "./order-model.js";
import type { VariationRecord, WarehouseRecord } from "./types.js";

const WAREHOUSE_FIELDS = [
  "name",
  "phone_number",
  "address",
  "province_id",
  "district_id",
  "commune_id",
  "country_code",
  "batch_config",
  "custom_batch_config",
  "shelf_config",
  "custom_shelf_config",
  "hide_config_batch_shelf",
  "allow_create_order",
];

const CONFIG_FIELDS = new Set([
  "batch_config",
  "custom_batch_config",
  "shelf_config",
  "custom_shelf_config",
  "hide_config_batch_shelf",
]);

const fold = (text: string) => asciiName(text).replace(/\s+/g, " ");

export function registerShopRoutes(api: PosApi): void {
  const { state } = api;

  api.get("/shops", () => ({ shops: [state.shop], success: true }));

  api.get("/geo/provinces", (req) => {
    const country = requireParam(req, "country_code");
    if (country !== "84") return { data: [], success: true };
    if (boolParam(req, "all")) return { data: [...state.geo.provinces, ...state.geo.newProvinces], success: true };
    return { data: boolParam(req, "is_new") ? state.geo.newProvinces : state.geo.provinces, success: true };
  });
  api.get("/geo/districts", (req) => {
    const provinceId = requireParam(req, "province_id");
    return { data: state.geo.districts.filter((d) => d.province_id === provinceId), success: true };
  });
  api.get("/geo/communes", (req) => {
    const provinceId = requireParam(req, "province_id");
    // A post-2025 province id answers its two-tier communes, no district asked (reported by a
    // public client replaying production traces, /work/shared/reference/README.md).
    if (state.geo.newProvinces.some((p) => p.id === provinceId)) {
      return { data: state.geo.wards.filter((w) => w.province_id === provinceId), success: true };
    }
    const districtId = requireParam(req, "district_id");
    const data = state.geo.communes.filter((c) => c.province_id === provinceId && c.district_id === districtId);
    return { data, success: true };
  });

  api.get("/shops/:shop_id/users", () => ({
    data: state.users.map((u) => ({
      user_id: u.id,
      shop_id: state.shop.id,
      department: u.department,
      user: { id: u.id, name: u.name, email: u.email, fb_id: u.fb_id, phone_number: u.phone_number },
    })),
    success: true,
  }));
  api.get("/shops/:shop_id/partners", () => ({ data: state.partners, success: true }));
  api.get("/shops/:shop_id/order_source", () => ({ data: state.orderSources, success: true }));

  // The live list leaves out the creation-only configs (shelves, batches).
  const listed = (w: WarehouseRecord) => Object.fromEntries(Object.entries(w).filter(([k]) => !CONFIG_FIELDS.has(k)));
  api.get("/shops/:shop_id/warehouses", () => ({ data: state.warehouses.map(listed), success: true }));
  // Create and update alike require name and shelf_config (the OpenAPI's required fields).
  const saveWarehouse = (warehouse: WarehouseRecord, body: Record<string, unknown>) => {
    if (typeof body.name !== "string" || !body.name.trim() || body.shelf_config === undefined) throw invalid();
    for (const field of WAREHOUSE_FIELDS) if (body[field] !== undefined) warehouse[field] = body[field];
    const commune = state.geo.communes.find((c) => c.id === warehouse.commune_id);
    const district = state.geo.districts.find((d) => d.id === commune?.district_id);
    const province = state.geo.provinces.find((p) => p.id === commune?.province_id);
    warehouse.full_address = [warehouse.address, commune?.name, district?.name, province?.name].filter(Boolean).join(", ");
    return { data: warehouse, success: true };
  };
  api.post("/shops/:shop_id/warehouses", (req) => {
    const warehouse: WarehouseRecord = {
      id: nextUuid(state),
      name: "",
      custom_id: null,
      phone_number: "",
      address: "",
      full_address: "",
      country_code: "84",
      province_id: "",
      district_id: "",
      commune_id: "",
      shop_id: state.shop.id,
      allow_create_order: true,
      shelf_config: null,
    };
    const result = saveWarehouse(warehouse, bodyOf(req));
    state.warehouses.push(warehouse);
    for (const v of state.variations) v.variations_warehouses.push(emptyStock(warehouse.id));
    return result;
  });
  api.put("/shops/:shop_id/warehouses/:warehouse_id", (req) => {
    const warehouse = state.warehouses.find((w) => w.id === req.params.warehouse_id);
    if (!warehouse) throw notFound("warehouse_not_found");
    return saveWarehouse(warehouse, bodyOf(req));
  });

  api.get("/shops/:shop_id/products/variations", (req) => {
    const search = req.query.get("search")?.trim();
    const needle = search ? fold(search) : undefined;
    const ids = listParam(req, "variation_ids");
    const categories = listParam(req, "category_id").map(Number);
    const matches = (v: VariationRecord) =>
      (!needle ||
        [v.product.name, v.display_id, v.barcode, v.product.display_id].some((t) => fold(t).includes(needle))) &&
      (!ids.length || ids.includes(v.id)) &&
      (!categories.length || v.product.category_ids.some((c) => categories.includes(c)));
    return paged(req, state.variations.filter(matches), { pageKey: "page_number" });
  });
  api.get("/shops/:shop_id/products/:id_or_sku", (req) => {
    const key = req.params.id_or_sku!;
    const product = state.products.find((p) => p.id === key || p.display_id === key || p.custom_id === key);
    if (!product) throw notFound("product_not_found");
    return { data: { ...product, variations: state.variations.filter((v) => v.product_id === product.id) }, success: true };
  });
}
