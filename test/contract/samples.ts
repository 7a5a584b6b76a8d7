import type { Operation, Schema } from "../../src/clients/openapi/types.js";
import type { Sandbox } from "../../src/sandbox/index.js";

/** The plainest value of a schema: required fields only, the first of an enum. */
export function sampleOf(schema: Schema): unknown {
  if (schema.anyOf) return sampleOf(schema.anyOf[0]!);
  if (schema.enum) return schema.enum[0];
  const type = (Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type) ?? (schema.properties ? "object" : "string");
  switch (type) {
    case "array":
      return [sampleOf(schema.items ?? { type: "string" })];
    case "object":
      return Object.fromEntries((schema.required ?? []).map((key) => [key, sampleOf(schema.properties?.[key] ?? {})]));
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    default:
      return "1";
  }
}

/** Path values the sandbox knows (so hand-written routes find their record); others sampled. */
function pathValue(sandbox: Sandbox, name: string): unknown {
  const page = sandbox.messaging.pages[0]!;
  const inbox = sandbox.messaging.conversations.find((c) => c.page_id === page.id && c.type === "INBOX")!;
  const known: Record<string, unknown> = {
    page_id: page.id,
    conversation_id: inbox.id,
    psid: inbox.from.id,
    page_customer_id: sandbox.messaging.customers.find((c) => c.page_id === page.id)!.id,
    order_id: sandbox.pos.orders[0]!.id,
    customer_id: sandbox.pos.customers[0]!.id,
    product_id: sandbox.pos.products[0]!.id,
    product_sku: sandbox.pos.products[0]!.display_id,
    variation_id: sandbox.pos.variations[0]!.id,
    warehouse_id: sandbox.pos.warehouses[0]!.id,
    transfer_id: sandbox.pos.transfers[0]!.id,
    stocktaking_id: sandbox.pos.stocktakings[0]!.id,
    promotion_id: sandbox.pos.promotions[0]!.id,
  };
  return known[name] ?? "1";
}

/** Arguments of call_api_read / call_api_write that satisfy the operation's documented schema. */
export function sampleCall(op: Operation, sandbox: Sandbox): { operation: string; params: Record<string, unknown>; body?: unknown } {
  const params: Record<string, unknown> = {};
  for (const param of op.params) {
    if (param.name in params || param.name === "shop_id") continue;
    if (param.in === "path") params[param.name] = pathValue(sandbox, param.name);
    else if (param.name === "date_range") params[param.name] = /customers/.test(op.path) ? "01/11/2026 - 02/11/2026" : "01/11/2026 00:00:00 - 02/11/2026 23:59:59";
    else if (param.required) params[param.name] = sampleOf(param.schema);
  }
  const body = op.body && !op.body.multipart ? sampleOf(op.body.schema) : undefined;
  // An order's system id in a body (the order link) must name an order the sandbox has, as path ids do.
  if (typeof body === "object" && body !== null && "system_id" in body) (body as Record<string, unknown>).system_id = sandbox.pos.orders[0]!.system_id;
  return { operation: op.id, params, ...(body === undefined ? {} : { body }) };
}
