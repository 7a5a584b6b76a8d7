import { type PosApi, REPEAT_AFTER_PAGE, bodyOf, intParam, invalid, listParam, paged, pagedView, unixParamMs } from "./api.js";
import { selectOrders } from "./lists.js";
import { projectOrder } from "./order-query.js";
import { createOrder, createReturn, findOrder, updateOrder } from "./order-writes.js";
import { ms } from "./time.js";
import type { OrderRecord, ReturnOrderRecord } from "./types.js";

function returnTime(r: ReturnOrderRecord, field: string): string | undefined {
  if (field === "inserted_at" || field === "updated_at") return r[field];
  if (!/^\d+$/.test(field)) throw invalid();
  return r.status_histories.find((h) => h.status === Number(field))?.updated_at;
}

export function registerOrderRoutes(api: PosApi): void {
  const { state } = api;

  api.get("/shops/:shop_id/orders", (req) => {
    const fields = listParam(req, "fields");
    const page = pagedView(req, (end) => selectOrders(state, req, end), { pageKey: "page_number", repeatAfter: REPEAT_AFTER_PAGE });
    page.data = (page.data as OrderRecord[]).map((o) => projectOrder(o, fields));
    return page;
  });

  api.get("/shops/:shop_id/orders/:order_id", (req) => ({ data: findOrder(state, req.params.order_id!), success: true }));

  api.post("/shops/:shop_id/orders", (req) => ({ data: createOrder(state, bodyOf(req)), success: true }));

  api.put("/shops/:shop_id/orders/:order_id", (req) => {
    const order = findOrder(state, req.params.order_id!);
    return { data: updateOrder(state, order, bodyOf(req)), success: true };
  });

  api.get("/shops/:shop_id/orders_returned", (req) => {
    const status = intParam(req, "status", -1);
    const field = req.query.get("update_status") ?? "inserted_at";
    const start = unixParamMs(req, "start_time");
    const end = unixParamMs(req, "end_time");
    const rows = state.returnOrders
      .filter((r) => {
        if (status !== -1 && r.status !== status) return false;
        if (start === undefined && end === undefined) return true;
        const time = returnTime(r, field);
        if (!time) return false;
        return (start === undefined || ms(time) >= start) && (end === undefined || ms(time) <= end);
      })
      .sort((a, b) => (a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : b.id - a.id));
    return paged(req, rows, { pageKey: "page", totalPages: false });
  });

  api.post("/shops/:shop_id/orders_returned", (req) => ({ data: createReturn(state, bodyOf(req)), success: true }));
}
