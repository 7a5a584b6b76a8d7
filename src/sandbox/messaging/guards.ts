import { reply, type RouteResult, type Router, type SandboxRequest } from "../server.js";
import { inboxLists } from "./lists.js";
import type { Range } from "./time.js";
import type { ConversationRecord, MessagingState, PageRecord } from "./types.js";

/** What every route needs: the data and the sandbox clock (seed instant plus time since start). */
export interface RouteContext {
  state: MessagingState;
  /** Current time in UTC ms. */
  clock: () => number;
}

// Failures are thrown as Reply values; the sandbox server answers them as they are.

export const badParams = (message: string) => reply(400, { success: false, error: "invalid_parameters", message });

const badPageToken = () => reply(200, { success: false, error_code: 102, message: "Invalid access_token" });

/** The page of `:page_id` when the request carries its page token (either parameter name). */
export function pageOf(ctx: RouteContext, req: SandboxRequest, tokenOptional = false): PageRecord {
  const page = ctx.state.pages.find((p) => p.id === req.params.page_id);
  const token = req.query.get("page_access_token") ?? req.query.get("access_token");
  if (token === null && tokenOptional && page) return page;
  if (!page || token !== page.settings.page_access_token) throw badPageToken();
  return page;
}

export function requireUser(ctx: RouteContext, req: SandboxRequest): void {
  if (req.query.get("access_token") !== ctx.state.userToken) {
    throw reply(401, { success: false, message: "Unauthorized", error: "invalid_access_token" });
  }
}

/** A page the user token manages (user-token routes). */
export function userPage(ctx: RouteContext, req: SandboxRequest, id = req.params.page_id): PageRecord {
  requireUser(ctx, req);
  const page = ctx.state.pages.find((p) => p.id === id);
  if (!page) throw reply(403, { success: false, message: "You do not have permission to access this page" });
  return page;
}

/** Registers a page-token route; such routes share the live 5-calls-per-second-per-page limit. */
export function onPage(
  router: Router,
  ctx: RouteContext,
  method: string,
  path: string,
  handler: (req: SandboxRequest, page: PageRecord) => RouteResult,
  tokenOptional = false,
): void {
  router.on(method, path, (req) => handler(req, pageOf(ctx, req, tokenOptional)), { rateKey: (req) => req.params.page_id });
}

export function required(req: SandboxRequest, name: string): string {
  const value = req.query.get(name);
  if (value === null || value === "") throw badParams(`${name} is required`);
  return value;
}

/** An integer query parameter within bounds; undefined when absent and not required. */
export function intParam(
  req: SandboxRequest,
  name: string,
  limits: { required?: boolean; min?: number; max?: number } = {},
): number | undefined {
  const text = limits.required ? required(req, name) : req.query.get(name);
  if (text === null || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value)) throw badParams(`${name} must be an integer`);
  if (limits.min !== undefined && value < limits.min) throw badParams(`${name} must be at least ${limits.min}`);
  if (limits.max !== undefined && value > limits.max) throw badParams(`${name} must be at most ${limits.max}`);
  return value;
}

/** since/until in Unix seconds, as an inclusive UTC ms range. */
export function timeRange(req: SandboxRequest, optional = false): Range | undefined {
  const has = (name: string) => (req.query.get(name) ?? "") !== "";
  if (optional && !has("since") && !has("until")) return undefined;
  if (optional && has("since") !== has("until")) throw badParams("since and until must be given together");
  const since = intParam(req, "since", { required: true })!;
  const until = intParam(req, "until", { required: true })!;
  if (until < since) throw badParams("until must not be before since");
  return { from: since * 1000, to: until * 1000 + 999 };
}

/** The range a list serves: the one asked, or none when the list ignores it (quirks.ts). */
export const servedRange = (req: SandboxRequest, range: Range | undefined) => (req.quirks?.ignoreRange ? undefined : range);

/**
 * The time field a list orders by (`order_by`), which is also the field since/until range over:
 * the documents pair the two without saying which field the range reads, so the sandbox takes the
 * one the list is ordered by, on every list that has both.
 */
export function orderParam(req: SandboxRequest, fallback: "inserted_at" | "updated_at"): "inserted_at" | "updated_at" {
  const orderBy = req.query.get("order_by") ?? fallback;
  if (orderBy !== "inserted_at" && orderBy !== "updated_at") throw badParams("order_by must be inserted_at or updated_at");
  return orderBy;
}

export function conversationOf(ctx: RouteContext, page: PageRecord, id: string | undefined): ConversationRecord {
  const found = inboxLists(ctx.state)
    .conversationById.get(id ?? "")
    .find((c) => c.page_id === page.id);
  if (!found) throw reply(404, { success: false, error: "not_found", message: "Conversation not found" });
  return found;
}

/** Values of a list parameter sent repeated (`type=A&type=B`), bracketed or comma-separated. */
export function listParam(req: SandboxRequest, name: string): string[] {
  return [...req.query.getAll(name), ...req.query.getAll(`${name}[]`)]
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

export function pageSlice<T>(items: T[], pageNumber: number, pageSize: number): T[] {
  return items.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
}
