import type { Operation } from "./types.js";

/**
 * Where the vendor's OpenAPI contradicts itself or the seed spec, and what the index (and so the
 * contract test and the `api` toolset) takes instead. Each entry says why. The generator
 * (scripts/gen-openapi-index.ts) applies them; test/contract/ checks that every one still applies
 * and that there are fewer than ten. Seed-only parameters and operations are not exceptions: the
 * seed is the scope, so the generator merges them in (scripts/openapi/seed-operations.ts).
 */
export interface Amendment {
  /** The operation it changes, `<api> <METHOD> <path>` as the index names it before the change. */
  op: string;
  why: string;
  apply(op: Operation): void;
}

/** A post-2025 province id as /geo/provinces gives it (new_id): "84_VN101". */
export const POST_2025_PROVINCE = "^\\d+_VN\\d+$";

export const AMENDMENTS: Amendment[] = [
  {
    op: "pos PUT /shops/{shop_id}/export",
    why:
      "Declares EXPORT_ID as a path parameter that its path lacks. Every other POS update names its record in the path (/transfers/{id}, /stocktakings/{id}, /purchases/{id}), so the path is taken to be /export/{export_id}.",
    apply(op) {
      op.path = "/shops/{shop_id}/export/{export_id}";
    },
  },
  {
    op: "pos GET /geo/communes",
    why:
      "Requires district_id, a level the reform of 1 July 2025 removed: /geo/provinces gives each province its post-2025 new_id (84_VN101), and a public client replaying production traces reports that /geo/communes?province_id=<new id> answers the two-tier wards (district_id null) with no district_id (README facts). district_id stays required for every other province: only a post-2025 id may leave it out.",
    apply(op) {
      const district = op.params.find((p) => p.in === "query" && p.name === "district_id");
      if (!district?.required) throw new Error(`${op.id}: district_id is no longer required`);
      district.requiredUnless = { param: "province_id", matches: POST_2025_PROVINCE };
    },
  },
  {
    op: "messaging PUT /pages/{page_id}/page_customers/{page_customer_id}/notes",
    why:
      "Names no server, unlike the POST beside it: the root list offers /v1 first, but the operation takes a page_access_token, which only the public_api servers read. It uses its sibling's /public_api/v1.",
    apply(op) {
      op.path = `/public_api/v1${op.path}`;
    },
  },
  {
    op: "messaging DELETE /pages/{page_id}/page_customers/{page_customer_id}/notes",
    why: "As the PUT beside it: no server of its own and a page_access_token, so /public_api/v1.",
    apply(op) {
      op.path = `/public_api/v1${op.path}`;
    },
  },
  {
    op: "messaging POST /v1/pages/{page_id}/generate_page_access_token",
    why:
      "Declares page_id only as a query parameter while its path holds {page_id}; the seed states it in both places. Both are filled with the same id.",
    apply(op) {
      op.params.unshift({ name: "page_id", in: "path", required: true, schema: { type: "string" } });
    },
  },
  {
    op: "messaging POST /public_api/v1/pages/{page_id}/conversations/{conversation_id}/messages",
    why:
      "Its Inbox Message form requires message, and its own text says message and content_ids are mutually exclusive (\"DO NOT send both\"): a file is sent as content_ids without message, so message is optional in that form.",
    apply(op) {
      const inbox = op.body?.schema.anyOf?.find((form) => form.properties?.action?.enum?.[0] === "reply_inbox" && form.properties.content_ids);
      if (!inbox?.required?.includes("message")) throw new Error(`${op.id}: the inbox form no longer requires message`);
      inbox.required = inbox.required.filter((name) => name !== "message");
    },
  },
];
