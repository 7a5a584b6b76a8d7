import { bodyOf, invalid, notFound, type PosApi } from "./api.js";
import { emptyStock } from "./order-model.js";
import { findOrder } from "./order-writes.js";
import { nextNumber, nextUuid, type PosState, writeTime } from "./state.js";
import { iso } from "./time.js";
import type { CategoryRecord, ProductRecord, VariationRecord } from "./types.js";

type Body = Record<string, unknown>;

const records = (value: unknown): Body[] =>
  Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null) ? (value as Body[]) : [];
const int = (value: unknown) => (Number.isInteger(value) ? (value as number) : undefined);

/** The product with its variations, as the live detail answers it. */
function withVariations(state: PosState, product: ProductRecord) {
  return { ...product, variations: state.variations.filter((v) => v.product_id === product.id) };
}

/** The variation fields a product write sets (the OpenAPI's variation keys the sandbox keeps). */
function applyVariation(v: VariationRecord, body: Body): void {
  for (const key of ["retail_price", "price_at_counter", "last_imported_price", "weight"] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (int(value) === undefined || (value as number) < 0) throw invalid();
    v[key] = value as number;
  }
  if (typeof body.barcode === "string") v.barcode = body.barcode;
  if (typeof body.is_hidden === "boolean") v.is_hidden = body.is_hidden;
  if (Array.isArray(body.images)) v.images = body.images.map(String);
}

function newVariation(state: PosState, product: ProductRecord, body: Body, index: number): VariationRecord {
  const fields = records(body.fields).map((f, i) => ({ id: `f-${i}`, keyValue: String(f.name ?? ""), name: String(f.name ?? ""), value: String(f.value ?? "") }));
  const variation: VariationRecord = {
    id: nextUuid(state),
    product_id: product.id,
    display_id: typeof body.custom_id === "string" && body.custom_id ? body.custom_id : `${product.display_id}-${index + 1}`,
    barcode: "",
    fields,
    images: [],
    retail_price: 0,
    last_imported_price: 0,
    average_imported_price: 0,
    weight: product.weight,
    is_hidden: false,
    is_locked: false,
    remain_quantity: 0,
    variations_warehouses: state.warehouses.map((w) => emptyStock(w.id)),
    inserted_at: product.inserted_at,
    product: { name: product.name, display_id: product.display_id, custom_id: product.custom_id, category_ids: product.category_ids, image: product.image },
  };
  applyVariation(variation, body);
  return variation;
}

/** Name, weight (both required by the OpenAPI) and the product fields the sandbox keeps. */
function applyProduct(state: PosState, product: ProductRecord, body: Body): void {
  if (typeof body.name !== "string" || !body.name.trim() || int(body.weight) === undefined) throw invalid();
  product.name = body.name;
  product.weight = body.weight as number;
  if (Array.isArray(body.category_ids)) {
    const ids = body.category_ids.map(Number);
    if (!ids.every((id) => categoryOf(state.categories, id))) throw invalid();
    product.category_ids = ids;
  }
  if (typeof body.note === "string") product.note = body.note;
  if (typeof body.is_published === "boolean") product.is_published = body.is_published;
  for (const v of state.variations.filter((x) => x.product_id === product.id)) {
    v.product = { ...v.product, name: product.name, category_ids: product.category_ids };
  }
}

function categoryOf(tree: CategoryRecord[], id: number): CategoryRecord | undefined {
  for (const node of tree) {
    if (node.id === id) return node;
    const found = categoryOf(node.nodes, id);
    if (found) return found;
  }
  return undefined;
}

/** Products, categories, order tags and the order link: what the catalog and fulfillment tools use. */
export function registerCatalogRoutes(api: PosApi): void {
  const { state } = api;

  api.get("/shops/:shop_id/categories", () => ({ data: state.categories, success: true }));
  api.post("/shops/:shop_id/categories", (req) => {
    const body = bodyOf(req);
    if (typeof body.name !== "string" || !body.name.trim()) throw invalid();
    const parent = body.parent_id === undefined ? undefined : categoryOf(state.categories, Number(body.parent_id));
    if (body.parent_id !== undefined && !parent) throw invalid();
    const category: CategoryRecord = { id: 200 + nextNumber(state, "category"), text: body.name, parent_id: parent?.id ?? null, nodes: [] };
    (parent ? parent.nodes : state.categories).push(category);
    return { data: category, success: true };
  });

  api.post("/shops/:shop_id/products", (req) => {
    const body = bodyOf(req, "product");
    const variations = records(body.variations);
    if (!variations.length) throw invalid();
    const n = nextNumber(state, "product");
    const sku = typeof body.custom_id === "string" && body.custom_id ? body.custom_id : `SP${String(n).padStart(4, "0")}`;
    const product: ProductRecord = {
      id: nextUuid(state),
      name: "",
      display_id: sku,
      custom_id: sku,
      category_ids: [],
      image: "",
      weight: 0,
      is_published: true,
      inserted_at: iso(writeTime(state)),
    };
    applyProduct(state, product, body);
    state.products.push(product);
    variations.forEach((v, i) => {
      state.variations.push(newVariation(state, product, v, i));
    });
    return { data: withVariations(state, product), success: true };
  });

  // Variations with an id are updated, ones without are added; the rest stay as they are.
  api.put("/shops/:shop_id/products/:product_id", (req) => {
    const product = state.products.find((p) => p.id === req.params.product_id);
    if (!product) throw notFound("product_not_found");
    const body = bodyOf(req, "product");
    const rows = records(body.variations);
    for (const row of rows) {
      if (row.id !== undefined && !state.variations.some((v) => v.id === row.id && v.product_id === product.id)) throw invalid();
    }
    applyProduct(state, product, body);
    const count = state.variations.filter((v) => v.product_id === product.id).length;
    rows.forEach((row, i) => {
      const existing = state.variations.find((v) => v.id === row.id);
      if (existing) applyVariation(existing, row);
      else state.variations.push(newVariation(state, product, row, count + i));
    });
    return { data: withVariations(state, product), success: true };
  });

  api.get("/shops/:shop_id/orders/tags", () => ({ data: state.orderTags, success: true }));
  api.post("/shops/:shop_id/orders/tags", (req) => {
    const body = bodyOf(req);
    if (typeof body.name !== "string" || !body.name.trim()) throw invalid();
    const tag = { id: Math.max(0, ...state.orderTags.map((t) => t.id)) + 1, name: body.name, color: typeof body.tag_color === "string" ? body.tag_color : "#8c8c8c", is_system_tag: false, groups: [] };
    state.orderTags.push(tag);
    return { data: tag, success: true };
  });

  // The link a customer opens to confirm the order and follow it; its token stands for the order.
  api.post("/shops/:shop_id/orders/get_tracking_url", (req) => {
    const systemId = int(bodyOf(req).system_id);
    if (systemId === undefined) throw invalid();
    const order = state.orders.find((o) => o.system_id === systemId) ?? findOrder(state, String(systemId));
    return { url: order.tracking_link, success: true };
  });
}
