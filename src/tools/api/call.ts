import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { pathOf, type QueryValue } from "../../clients/http.js";
import type { Operation, Parameter } from "../../clients/openapi/index.js";
import { fromQueryText, validate } from "../../clients/openapi/validate.js";
import { requiredWith } from "../../clients/openapi/match.js";
import { sanitizeDeep } from "../../text/sanitize.js";
import type { ToolContext } from "../define.js";
import { jsonish } from "../inputs.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { CURATED, NEVER } from "./curated.js";
import { describeOperation, operationById } from "./operations.js";

export const operationInput = z.string().max(200).describe("Operation id");
export const paramsInput = jsonish(z.record(z.string(), z.unknown())).optional().describe("By name");

export const callOutput = z.object({ operation: z.string(), result: z.unknown(), note: z.string().optional() });

/**
 * Characters of JSON one api result may take (raw records are bulky): past it the tool layer cuts
 * the longest lists and says what it left out (outbound.ts), as for every tool.
 */
export const API_RESULT_MAX = 24_000;

function reject(problems: string[], op: Operation): never {
  const [first, ...more] = problems;
  const [field, ...reason] = first!.split(": ");
  const rest = more.length ? ` (and ${more.length} more: ${more.slice(0, 3).join("; ")})` : "";
  throw new InputError(field, `${reason.join(": ")}${rest}`, `The operation takes: ${JSON.stringify(describeOperation(op, 1500).params.map((p) => p.name))}; see find_api_operations with its id.`);
}

/** The parameter a caller's key names: its own name, or the POS's `name[]` given without brackets. */
function paramOf(op: Operation, key: string): Parameter | undefined {
  return op.params.find((p) => p.name === key) ?? op.params.find((p) => p.name === `${key}[]`);
}

/** A caller's value as the parameter types it: "12" for an integer is 12, one value for a list a list. */
function coerce(param: Parameter, value: unknown): unknown {
  const isList = param.schema.type === "array";
  const items = isList ? (param.schema.items ?? {}) : param.schema;
  // Ids are often typed as text and given as numbers: a number where text is wanted is its text.
  const text = items.type === "string" || (Array.isArray(items.type) && items.type.includes("string"));
  const one = (v: unknown) => (typeof v === "string" ? fromQueryText(items, v) : typeof v === "number" && text ? String(v) : v);
  if (isList) return (Array.isArray(value) ? value : [value]).map(one);
  return one(value);
}

/** A query value as it travels: scalars as text, objects and nested lists as JSON. */
function queryValue(value: unknown): QueryValue {
  if (Array.isArray(value)) return value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : (v as string | number | boolean)));
  return value as QueryValue;
}

/** Fills a path template through pathOf, the one place ids are checked and encoded for a path. */
function fillPath(template: string, values: Record<string, unknown>): string {
  const parts = template.split(/\{[^}]+\}/);
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name!);
  const strings = Object.assign([...parts], { raw: [...parts] }) as unknown as TemplateStringsArray;
  return pathOf(strings, ...names.map((name) => String(values[name])));
}

/**
 * A write a curated tool makes goes through that tool, whatever this session lists: the tool
 * resolves names, checks the rules and asks the user where it must (a send, a payment), and the
 * raw operation would skip all of that. The hint says how to reach the tool when it is not listed.
 */
function refuseCurated(op: Operation): void {
  const curated = CURATED[op.id];
  if (!curated?.length) return;
  const tools = curated.map(([name]) => name).join(" or ");
  const toolsets = [...new Set(curated.map(([, toolset]) => toolset))].join(", ");
  throw new InputError(
    "operation",
    `is a change ${tools} makes`,
    `Use ${tools}: it resolves names, checks the rules and asks the user where it must (enable_toolset ${toolsets} if it is not listed).`,
  );
}

/**
 * Calls one documented operation: the id must name a read for the read tool and a write for the
 * write tool; parameters and body are checked against the vendor's schema before anything is
 * sent; credentials, rate limits, retries (reads only) and errors are the clients' own.
 */
export async function callOperation(
  ctx: ToolContext,
  input: { operation: string; params?: Record<string, unknown>; body?: unknown },
  write: boolean,
) {
  const op = await operationById(input.operation);
  if (!op) throw new InputError("operation", `${JSON.stringify(input.operation.slice(0, 80))} is not an operation id`, "Find the id with find_api_operations.");
  if ((op.method !== "GET") !== write) {
    throw new InputError("operation", write ? "is a read" : "changes data", `Use ${write ? "call_api_read" : "call_api_write"}.`);
  }
  if (NEVER[op.id]) throw new InputError("operation", `is not called through the api tools: ${NEVER[op.id]}`);
  if (write) refuseCurated(op);

  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(input.params ?? {})) {
    if (value === undefined || value === null) continue;
    const param = paramOf(op, key);
    if (!param) {
      problems.push(`params.${key}: is not a parameter of this operation`);
      continue;
    }
    values[param.name] = coerce(param, value);
  }
  if (op.params.some((p) => p.name === "shop_id") && values.shop_id === undefined) values.shop_id = Number(await resolveShopId(ctx, undefined));
  for (const param of op.params) {
    if (values[param.name] === undefined) {
      if (requiredWith(param, (name) => values[name])) problems.push(`params.${param.name}: is required`);
    } else validate(param.schema, values[param.name], `params.${param.name}`, problems);
  }
  if (input.body !== undefined && !op.body) problems.push("body: this operation takes no body");
  else if (op.body?.multipart) problems.push("body: this operation takes a file upload, which the api tools do not send");
  else if (op.body && input.body === undefined && op.body.required) problems.push("body: is required");
  else if (op.body && input.body !== undefined) validate(op.body.schema, input.body, "body", problems);
  if (problems.length) reject(problems, op);

  const path = fillPath(op.path, values);
  if (op.id === "messaging GET /v1/pages/{page_id}/avatar/{psid}") {
    // The one public route: it answers a redirect to the picture, so its URL is the answer.
    return { operation: op.id, result: { avatar_url: `${ctx.config.baseUrl.replace(/\/+$/, "")}${path}` } };
  }
  const query: Record<string, QueryValue> = {};
  for (const param of op.params) if (param.in === "query" && values[param.name] !== undefined) query[param.name] = queryValue(values[param.name]);
  const request = { op: op.summary || op.id, method: op.method, path, query, body: input.body, signal: ctx.signal };
  const json =
    op.api === "pos"
      ? await ctx.pos.callOperation(request.op, op.method, path, values.shop_id as number | undefined, query, input.body)
      : await ctx.messaging.callOperation(request, op.auth as "access_token" | "page_access_token" | "none", values.page_id as string | undefined);
  // Sanitized like every full record; outbound.ts cuts it to API_RESULT_MAX.
  return { operation: op.id, result: sanitizeDeep(json) };
}
