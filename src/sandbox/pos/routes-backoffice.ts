import type { SandboxRequest } from "../server.js";
import { type PosApi, bodyOf, intParam, invalid, listParam, notFound, paged, unixParamMs } from "./api.js";
import { saleAnalytics } from "./analytics.js";
import { changeStock } from "./order-model.js";
import { nextNumber, nextUuid, type PosState, writeTime } from "./state.js";
import { iso, ms } from "./time.js";
import type { BackOfficeRecord } from "./types.js";

type Body = Record<string, unknown>;
type Collection =
  | "transactions"
  | "debts"
  | "paymentHistories"
  | "purchases"
  | "inventoryHistories"
  | "stockExports"
  | "transfers"
  | "stocktakings"
  | "promotions"
  | "combos";

interface ListOptions {
  /** The status value meaning "every status" (purchases and stocktakings use -2; -1 is a status there). */
  all?: number;
  /** Names of the Unix-seconds range parameters, applied to `inserted_at`. */
  range?: [string, string];
  /** Extra query filters: parameter name -> record field. */
  equals?: Record<string, string>;
  text?: string;
}

const newestFirst = (a: BackOfficeRecord, b: BackOfficeRecord) =>
  a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : String(a.id) < String(b.id) ? -1 : 1;

function listOf(state: PosState, collection: Collection, options: ListOptions = {}) {
  return (req: SandboxRequest) => {
    const all = options.all ?? -1;
    const status = intParam(req, "status", all);
    const [fromKey, toKey] = options.range ?? [];
    const from = fromKey ? unixParamMs(req, fromKey) : undefined;
    const to = toKey ? unixParamMs(req, toKey) : undefined;
    const text = options.text ? req.query.get(options.text)?.toLowerCase() : undefined;
    const rows = state[collection].filter(
      (r) =>
        (status === all || r.status === status) &&
        (from === undefined || ms(r.inserted_at) >= from) &&
        (to === undefined || ms(r.inserted_at) <= to) &&
        (!text || String(r.name ?? "").toLowerCase().includes(text)) &&
        Object.entries(options.equals ?? {}).every(([param, field]) => {
          const wanted = req.query.get(param);
          return wanted === null || String(r[field]) === wanted;
        }),
    );
    return paged(req, rows.sort(newestFirst), { pageKey: "page" });
  };
}

/** Checks that each named field of a payload is present (a 400 otherwise). */
function required(body: Body, fields: string[]): void {
  if (fields.some((f) => body[f] === undefined || body[f] === null || body[f] === "")) throw invalid();
}

function find(state: PosState, collection: Collection, id: string, error: string): BackOfficeRecord {
  const record = state[collection].find((r) => String(r.id) === id);
  if (!record) throw notFound(error);
  return record;
}

/** A new record of `collection` from a payload, with id, display id and times. */
function create(state: PosState, collection: Collection, kind: string, fields: Body): BackOfficeRecord {
  const at = iso(writeTime(state));
  const record: BackOfficeRecord = {
    ...fields,
    id: nextUuid(state),
    display_id: nextNumber(state, kind),
    shop_id: state.shop.id,
    inserted_at: at,
    updated_at: at,
  };
  state[collection].push(record);
  return record;
}

function update(state: PosState, record: BackOfficeRecord, fields: Body): { data: BackOfficeRecord; success: true } {
  const { id: _id, ...changes } = fields;
  Object.assign(record, changes, { updated_at: iso(writeTime(state)) });
  return { data: record, success: true };
}

function isoTime(value: unknown, fallback: string): string {
  if (typeof value === "number") return iso(value * 1000);
  if (typeof value === "string" && !Number.isNaN(ms(value))) return iso(ms(value));
  return fallback;
}

/**
 * The id of the cash-book tag named `name`, created the first time a name is used: an ad cost
 * takes tag names ("Thẻ 1"), and a name already kept (spaces and case aside) is the same tag.
 */
function transactionTag(state: PosState, name: string): string | undefined {
  const key = (text: string) => text.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
  if (!key(name)) return undefined;
  const known = state.transactionTags.find((t) => key(t.name) === key(name));
  if (known) return known.id;
  const tag = { id: nextUuid(state), name: name.trim(), inserted_at: iso(writeTime(state)) };
  state.transactionTags.push(tag);
  return tag.id;
}

function stockItems(value: unknown): { variation_id: string; quantity: number }[] {
  if (!Array.isArray(value) || !value.length) throw invalid();
  return (value as Body[]).map((it) => {
    const quantity = Number(it.quantity);
    if (typeof it.variation_id !== "string" || !Number.isFinite(quantity)) throw invalid();
    return { ...it, variation_id: it.variation_id, quantity };
  });
}

interface Movement {
  variation_id: string;
  warehouse_id: string;
  quantity: number;
  table_name: string;
  type: string;
  ref_display_id: unknown;
}

/** Changes stock and writes the signed inventory-history row the live service shows for it. */
function moveStock(state: PosState, move: Movement): void {
  changeStock(state, move.variation_id, move.warehouse_id, move.quantity, move.quantity, move.type);
  const variation = state.variations.find((v) => v.id === move.variation_id);
  const warehouse = state.warehouses.find((w) => w.id === move.warehouse_id);
  const stock = variation?.variations_warehouses.find((s) => s.warehouse_id === move.warehouse_id);
  if (!variation || !warehouse || !stock) return;
  state.inventoryHistories.push({
    id: state.inventoryHistories.length + 1,
    inserted_at: iso(writeTime(state)),
    quantity: move.quantity,
    remain_quantity: stock.remain_quantity,
    avg_price: variation.average_imported_price,
    current_inventory: [{ id: warehouse.id, name: warehouse.name, remain_quantity: stock.remain_quantity }],
    ref_display_id: String(move.ref_display_id),
    table_name: move.table_name,
    type: move.type,
    variation_id: variation.id,
    variation_now: { id: variation.id, display_id: variation.display_id, barcode: variation.barcode, retail_price: variation.retail_price },
    warehouse: { id: warehouse.id, name: warehouse.name },
  });
}

export function registerBackOfficeRoutes(api: PosApi): void {
  const { state } = api;
  const ok = (data: unknown) => ({ data, success: true });

  api.get("/shops/:shop_id/transactions", listOf(state, "transactions", { range: ["startDateTime", "endDateTime"] }));
  api.post("/shops/:shop_id/transactions", (req) => {
    const body = bodyOf(req, "transaction");
    required(body, ["name"]);
    const at = iso(writeTime(state));
    const record = create(state, "transactions", "transaction", {
      amount: 0,
      status: 1,
      payments: [],
      tag_ids: [],
      images: [],
      is_canceled: false,
      ...body,
      time_incurred: isoTime(body.time_incurred, at),
    });
    return ok(record);
  });
  api.post("/shops/:shop_id/adv_costs", (req) => {
    const body = bodyOf(req, "params");
    required(body, ["cost_date", "transaction", "items"]);
    const { tags, ...transaction } = body.transaction as Body;
    const items = body.items as Body[];
    required(transaction, ["name", "status"]);
    if (!Array.isArray(items) || !items.length || items.some((it) => typeof it.cost !== "number")) throw invalid();
    if (tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== "string"))) throw invalid();
    const total = items.reduce((sum, it) => sum + Math.round((it.cost as number) * (1 + Number(it.tax ?? 0) / 100)), 0);
    const tagIds = [...new Set(((tags ?? []) as string[]).map((name) => transactionTag(state, name)).filter((id) => id !== undefined))];
    const cost = { id: nextUuid(state), cost_date: body.cost_date, items, total_cost: total, tag_ids: tagIds, inserted_at: iso(writeTime(state)) };
    state.adCosts.push(cost);
    // The cash-book entry holds the tags by id (the OpenAPI's Transaction has tag_ids, no names).
    const tx = create(state, "transactions", "transaction", {
      ...transaction,
      amount: -total,
      status: Number(transaction.status),
      tag_ids: tagIds,
      advertising_cost_id: cost.id,
      time_incurred: isoTime(transaction.time_incurred, cost.inserted_at),
    });
    // The OpenAPI's answer is {success} alone (SuccessResponse); the record_ad_cost tool reads
    // the entry back and uses none of this.
    return ok({ ...cost, transaction: tx });
  });
  api.get(
    "/shops/:shop_id/payment_accounts/get_payment_histories",
    listOf(state, "paymentHistories", { range: ["startDate", "endDate"] }),
  );
  api.get("/shops/:shop_id/debt", (req) => {
    const page = listOf(state, "debts", { equals: { shop_customer_id: "shop_customer_id" } })(req);
    const rows = page.data as BackOfficeRecord[];
    const sum = (field: string) => rows.reduce((total, r) => total + Number(r[field] ?? 0), 0);
    return { ...page, sum: { money_must_pay_or_collect: sum("money_must_pay_or_collect"), money_payed_or_collected: sum("money_payed_or_collected") } };
  });

  api.get("/shops/:shop_id/analytics/sale", (req) => ok(saleAnalytics(state, req)));
  api.get("/shops/:shop_id/analytics/get_list_formula", () => ok(state.formulas));
  api.get("/shops/:shop_id/analytics/get_analytic_fields", () => ok(state.analyticFields));

  api.get("/shops/:shop_id/purchases", listOf(state, "purchases", { all: -2, equals: { type: "created_type" } }));
  api.post("/shops/:shop_id/purchases/separate", (req) => {
    const body = bodyOf(req);
    const next = body.newPurchase as Body | undefined;
    const previous = body.oldPurchase as Body | undefined;
    if (!next || !previous || previous.id === undefined) throw invalid();
    const old = find(state, "purchases", String(previous.id), "purchase_not_found");
    const items = stockItems(next.items);
    const created = create(state, "purchases", "purchase", {
      ...old,
      ...next,
      items,
      total_quantity: items.reduce((sum, it) => sum + it.quantity, 0),
      separate_by_display_ids: [old.display_id],
    });
    update(state, old, { ...previous, items: stockItems(previous.items) });
    return ok({ new_purchase: created, old_purchase: old });
  });
  api.get(
    "/shops/:shop_id/inventory_histories",
    (req) => {
      const ids = listParam(req, "variation_ids");
      const warehouse = req.query.get("warehouse_id");
      const from = unixParamMs(req, "startDate");
      const to = unixParamMs(req, "endDate");
      const rows = state.inventoryHistories.filter(
        (r) =>
          (!ids.length || ids.includes(String(r.variation_id))) &&
          (!warehouse || (r.warehouse as { id: string }).id === warehouse) &&
          (from === undefined || ms(r.inserted_at) >= from) &&
          (to === undefined || ms(r.inserted_at) <= to),
      );
      return paged(req, rows.sort(newestFirst), { pageKey: "page" });
    },
  );

  api.get("/shops/:shop_id/export", listOf(state, "stockExports", { equals: { type: "type" } }));
  api.post("/shops/:shop_id/export", (req) => {
    const body = bodyOf(req, "export_list");
    required(body, ["warehouse_id"]);
    const items = stockItems(body.export_items);
    const record = create(state, "stockExports", "export", { status: 0, ...body, export_items: items });
    for (const it of items) {
      const move = { variation_id: it.variation_id, warehouse_id: String(body.warehouse_id), quantity: -it.quantity };
      moveStock(state, { ...move, table_name: "Export", type: "export", ref_display_id: record.display_id });
    }
    return ok(record);
  });

  api.get("/shops/:shop_id/transfers", listOf(state, "transfers", { range: ["startDate", "endDate"] }));
  api.post("/shops/:shop_id/transfers/multi", (req) => {
    const body = bodyOf(req, "transfer");
    required(body, ["from_warehouse_id", "to_warehouse_ids"]);
    const targets = body.to_warehouse_ids;
    const known = (id: unknown) => state.warehouses.some((w) => w.id === id);
    if (!Array.isArray(targets) || !targets.length || !known(body.from_warehouse_id) || !targets.every(known)) {
      throw invalid();
    }
    const items = stockItems(body.items);
    const { to_warehouse_ids: _targets, ...common } = body;
    const from = String(body.from_warehouse_id);
    const created = targets.map((to) => {
      const transfer = create(state, "transfers", "transfer", { status: 0, ...common, items, to_warehouse_id: to });
      for (const it of items) {
        const ref = { variation_id: it.variation_id, table_name: "Transfer", ref_display_id: transfer.display_id };
        moveStock(state, { ...ref, warehouse_id: from, quantity: -it.quantity, type: "transfer_out" });
        moveStock(state, { ...ref, warehouse_id: String(to), quantity: it.quantity, type: "transfer_in" });
      }
      return transfer;
    });
    return ok(created);
  });
  api.put("/shops/:shop_id/transfers/:transfer_id", (req) =>
    update(state, find(state, "transfers", req.params.transfer_id!, "transfer_not_found"), bodyOf(req, "transfer")),
  );

  api.get("/shops/:shop_id/stocktakings", listOf(state, "stocktakings", { all: -2 }));
  api.get("/shops/:shop_id/stocktakings/:stocktaking_id", (req) =>
    ok(find(state, "stocktakings", req.params.stocktaking_id!, "stocktaking_not_found")),
  );
  const stocktakingItems = (value: unknown) => {
    if (!Array.isArray(value) || !value.length) throw invalid();
    return (value as Body[]).map((it) => {
      if (typeof it.variation_id !== "string" || typeof it.changed_quantity !== "number") throw invalid();
      return { id: it.id ?? nextUuid(state), ...it };
    });
  };
  api.post("/shops/:shop_id/stocktakings", (req) => {
    const body = bodyOf(req, "stocktaking");
    required(body, ["warehouse_id", "status"]);
    return ok(create(state, "stocktakings", "stocktaking", { ...body, items: stocktakingItems(body.items) }));
  });
  api.put("/shops/:shop_id/stocktakings/:stocktaking_id", (req) => {
    const record = find(state, "stocktakings", req.params.stocktaking_id!, "stocktaking_not_found");
    const body = bodyOf(req, "stocktaking");
    required(body, ["id", "warehouse_id", "status"]);
    if (String(body.id) !== record.id) throw invalid();
    return update(state, record, { ...body, items: stocktakingItems(body.items) });
  });

  api.get("/shops/:shop_id/promotion_advance", listOf(state, "promotions", { text: "textSearch" }));
  api.post("/shops/:shop_id/promotion_advance", (req) => {
    const body = bodyOf(req, "promotion_advance");
    required(body, ["name", "type"]);
    return ok(create(state, "promotions", "promotion", { is_activated: false, items: [], ...body }));
  });
  api.put("/shops/:shop_id/promotion_advance/:promotion_id", (req) =>
    update(state, find(state, "promotions", req.params.promotion_id!, "promotion_not_found"), bodyOf(req, "promotion_advance")),
  );
  api.post("/shops/:shop_id/promotion_advance/delete_multi", (req) => {
    const ids = bodyOf(req).ids;
    if (!Array.isArray(ids) || !ids.length) throw invalid();
    const before = state.promotions.length;
    state.promotions = state.promotions.filter((p) => !ids.includes(p.id));
    return { success: true, deleted: before - state.promotions.length };
  });

  api.get("/shops/:shop_id/combo_products", listOf(state, "combos"));
  api.post("/shops/:shop_id/combo_products", (req) => {
    const body = bodyOf(req, "combo_product");
    required(body, ["name", "variations"]);
    return ok(create(state, "combos", "combo", { currency: "VND", ...body }));
  });
}
