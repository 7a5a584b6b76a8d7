import type { ApiName, AuthParam, Parameter, Schema } from "../../src/clients/openapi/types.js";

/**
 * Every endpoint of the two seed specs (../shared/spec/*.md), as the generator merges them into the
 * index. An endpoint the OpenAPI also documents adds only what the seed states and the OpenAPI
 * lacks (parameters, body fields: flagged as the seed's); one it lacks becomes a seed operation.
 * The generator fails on a seed endpoint that ends up in no operation.
 */
export interface SeedEndpoint {
  api: ApiName;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Below the API's base URL, with the server prefix for the messaging API. */
  path: string;
  summary?: string;
  auth?: AuthParam;
  params?: Parameter[];
  /** Properties added to the body (or the whole body of a seed-only operation). */
  body?: Schema;
}

const str: Schema = { type: "string" };
const int: Schema = { type: "integer" };
const q = (name: string, schema: Schema, required = false, description?: string): Parameter => ({
  name,
  in: "query",
  schema,
  ...(required ? { required } : {}),
  ...(description ? { description } : {}),
});
const DATE_RANGE = "DD/MM/YYYY HH:MM:SS - DD/MM/YYYY HH:MM:SS";

const m = (method: SeedEndpoint["method"], path: string, extra: Partial<SeedEndpoint> = {}): SeedEndpoint => ({
  api: "messaging",
  method,
  path,
  ...extra,
});
const p = (method: SeedEndpoint["method"], path: string, extra: Partial<SeedEndpoint> = {}): SeedEndpoint => ({
  api: "pos",
  method,
  path,
  ...extra,
});

const stocktakingBody = (fields: Record<string, Schema>): Schema => ({
  type: "object",
  properties: { stocktaking: { type: "object", properties: fields } },
});

const sendBody: Schema = {
  anyOf: [
    {
      type: "object",
      required: ["action"],
      properties: {
        action: { type: "string", enum: ["reply_inbox"] },
        message: str,
        name: { type: "string", description: "File name" },
        mime_type: str,
        content_url: { type: "string", description: "URL of the image or file" },
        attachmentType: { type: "string", enum: ["PHOTO", "DOCUMENT"] },
        thread_key: str,
      },
    },
    {
      type: "object",
      required: ["action"],
      properties: {
        action: { type: "string", enum: ["reply_comment"] },
        message: str,
        message_id: { type: "string", description: "The comment replied to" },
        content_url: str,
        image_data: { type: "string", description: "Image dimensions, required with content_url" },
      },
    },
    {
      type: "object",
      required: ["action", "post_id", "message"],
      properties: {
        action: { type: "string", enum: ["private_replies"] },
        post_id: str,
        message_id: str,
        message: str,
      },
    },
  ],
};

export const SEED_ENDPOINTS: SeedEndpoint[] = [
  // spec/messaging-api.md
  m("GET", "/v1/pages", { auth: "access_token" }),
  m("POST", "/v1/pages/{page_id}/generate_page_access_token", { auth: "access_token" }),
  m("GET", "/public_api/v2/pages/{page_id}/conversations"),
  m("GET", "/public_api/v1/pages/{page_id}/conversations", {
    summary: "Conversations by page number (60 a page) with their total; since..until at most one month",
    auth: "page_access_token",
    params: [
      q("since", int, true),
      q("until", int, true),
      q("page_number", int, true),
      q("order_by", { type: "string", enum: ["inserted_at", "updated_at"] }),
      q("tags", str, false, "Comma-separated tag ids"),
    ],
  }),
  m("GET", "/v1/pages/{page_id}/conversations", {
    summary: "The 60 most recently interacted conversations, then 40 more from current_count",
    auth: "access_token",
    params: [q("tags", str, false, "Tag ids, or ALL for any tagged conversation"), q("current_count", int)],
  }),
  m("GET", "/public_api/v1/pages/{page_id}/conversations/{conversation_id}/messages", {
    params: [q("customer_id", str, false, "Customer id from the conversation list")],
  }),
  m("POST", "/public_api/v1/pages/{page_id}/conversations/{conversation_id}/tags"),
  m("POST", "/public_api/v1/pages/{page_id}/conversations/{conversation_id}/assign"),
  m("POST", "/public_api/v1/pages/{page_id}/conversations/{conversation_id}/read"),
  m("POST", "/public_api/v1/pages/{page_id}/conversations/{conversation_id}/unread"),
  m("POST", "/v1/pages/{page_id}/conversations/{conversation_id}/messages", {
    summary: "Send an inbox message, a comment reply or a private reply with the user token",
    auth: "access_token",
    body: sendBody,
  }),
  m("GET", "/public_api/v1/pages/{page_id}/page_customers"),
  m("GET", "/public_api/v1/pages/{page_id}/tags"),
  m("GET", "/public_api/v1/pages/{page_id}/posts"),
  m("GET", "/public_api/v1/pages/{page_id}/users"),
  m("GET", "/public_api/v1/pages/{page_id}/sip_call_logs"),
  m("GET", "/public_api/v1/pages/{page_id}/statistics/customer_engagements"),
  m("GET", "/public_api/v1/pages/{page_id}/statistics/pages"),
  m("GET", "/public_api/v1/pages/{page_id}/statistics/tags"),
  m("GET", "/public_api/v1/pages/{page_id}/statistics/users"),
  m("GET", "/public_api/v1/pages/{page_id}/statistics/customers", {
    summary: "New customer statistics by day, hour or page (the seed's path; the OpenAPI names it page_customers)",
    auth: "page_access_token",
    params: [
      q("group_by", { type: "string", enum: ["day", "hour", "page_id"] }),
      q("date_range", str, true, "DD/MM/YYYY - DD/MM/YYYY"),
      q("page_id", str, true),
    ],
  }),
  m("GET", "/public_api/v1/pages/{page_id}/statistics/pages_campaigns"),
  m("GET", "/public_api/v1/pages/{page_id}/statistics/ads"),
  m("GET", "/v1/statistics/user", {
    summary: "Staff statistics of several pages at once (user token); rows add order_count",
    auth: "access_token",
    params: [q("page_ids", str, true, "Comma-separated page ids"), q("date_range", str, true, DATE_RANGE)],
  }),

  // spec/pos-api.md
  p("GET", "/shops"),
  p("GET", "/geo/provinces"),
  p("GET", "/geo/districts"),
  p("GET", "/geo/communes"),
  p("GET", "/shops/{shop_id}/orders"),
  p("GET", "/shops/{shop_id}/orders/{order_id}"),
  p("POST", "/shops/{shop_id}/orders"),
  p("PUT", "/shops/{shop_id}/orders/{order_id}"),
  p("GET", "/shops/{shop_id}/orders_returned"),
  p("POST", "/shops/{shop_id}/orders_returned"),
  p("GET", "/shops/{shop_id}/order_source"),
  p("GET", "/shops/{shop_id}/partners"),
  p("GET", "/shops/{shop_id}/users"),
  p("GET", "/shops/{shop_id}/warehouses"),
  p("POST", "/shops/{shop_id}/warehouses"),
  p("PUT", "/shops/{shop_id}/warehouses/{warehouse_id}"),
  p("GET", "/shops/{shop_id}/customers"),
  // "Create or update a customer: body {customer: {Customer fields}}, all fields optional."
  p("POST", "/shops/{shop_id}/customers", { body: { type: "object", properties: { customer: { type: "object" } } } }),
  p("GET", "/shops/{shop_id}/customers/{customer_id}"),
  p("PUT", "/shops/{shop_id}/customers/{customer_id}"),
  p("GET", "/shops/{shop_id}/customers/point_logs"),
  p("POST", "/shops/{shop_id}/promotion_advance/create_multi"),
  p("GET", "/shops/{shop_id}/customers/{customer_id}/load_customer_notes"),
  p("POST", "/shops/{shop_id}/customers/{customer_id}/create_note"),
  p("GET", "/shops/{shop_id}/customer_levels"),
  p("GET", "/shops/{shop_id}/transactions"),
  p("POST", "/shops/{shop_id}/transactions"),
  p("POST", "/shops/{shop_id}/adv_costs"),
  p("GET", "/shops/{shop_id}/payment_accounts/get_payment_histories", {
    params: [q("page", int), q("page_size", int), q("startDate", int, false, "Unix seconds"), q("endDate", int, false, "Unix seconds")],
  }),
  p("GET", "/shops/{shop_id}/debt"),
  p("GET", "/shops/{shop_id}/analytics/sale", {
    params: [q("returned_status", str, false, "5 returned, 4 returning: which orders deduct revenue")],
  }),
  p("GET", "/shops/{shop_id}/analytics/get_list_formula"),
  p("GET", "/shops/{shop_id}/analytics/get_analytic_fields"),
  p("GET", "/shops/{shop_id}/purchases"),
  p("POST", "/shops/{shop_id}/purchases/separate"),
  p("GET", "/shops/{shop_id}/inventory_histories"),
  p("GET", "/shops/{shop_id}/products/variations"),
  p("GET", "/shops/{shop_id}/products/{product_id}"),
  p("GET", "/shops/{shop_id}/export"),
  p("POST", "/shops/{shop_id}/export"),
  p("GET", "/shops/{shop_id}/transfers"),
  p("POST", "/shops/{shop_id}/transfers/multi"),
  p("PUT", "/shops/{shop_id}/transfers/{transfer_id}"),
  p("GET", "/shops/{shop_id}/stocktakings"),
  // "creator_id (uid, optional); id (uid, required on update); ... warehouse_id (uid, required)"
  p("POST", "/shops/{shop_id}/stocktakings", { body: stocktakingBody({ creator_id: str }) }),
  p("GET", "/shops/{shop_id}/stocktakings/{stocktaking_id}"),
  p("PUT", "/shops/{shop_id}/stocktakings/{stocktaking_id}", { body: stocktakingBody({ creator_id: str, id: str, warehouse_id: str }) }),
  p("GET", "/shops/{shop_id}/promotion_advance"),
  p("POST", "/shops/{shop_id}/promotion_advance"),
  p("PUT", "/shops/{shop_id}/promotion_advance/{promotion_id}"),
  p("POST", "/shops/{shop_id}/promotion_advance/delete_multi"),
  // "Combo list: paged {data: [Combo]}"; paged lists take page and page_size (Limits).
  p("GET", "/shops/{shop_id}/combo_products", { params: [q("page", int), q("page_size", int)] }),
  p("POST", "/shops/{shop_id}/combo_products"),
];
