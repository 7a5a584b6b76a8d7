import { cut, listView, type View } from "../ordering.js";
import { misbehave } from "../quirks.js";
import { reply, type RouteHandler, type Router, type SandboxRequest } from "../server.js";
import type { PosState } from "./state.js";

/** Largest page_size honoured (the orders sample shows 100); larger values are cut to it. */
export const MAX_PAGE_SIZE = 100;
/** The live order list repeats page 100's rows for every later page. */
export const REPEAT_AFTER_PAGE = 100;

export const invalid = () => reply(400, { success: false, error: "invalid_parameters" });
export const notFound = (error: string) => reply(404, { success: false, error });

/** The routes of the POS, every one behind the api_key check of the live service. */
export class PosApi {
  constructor(
    private readonly router: Router,
    readonly state: PosState,
    private readonly prefix: string,
  ) {}

  on(method: string, path: string, handler: RouteHandler): void {
    this.router.on(method, this.prefix + path, this.guard(handler));
  }
  get(path: string, handler: RouteHandler): void {
    this.on("GET", path, handler);
  }
  post(path: string, handler: RouteHandler): void {
    this.on("POST", path, handler);
  }
  put(path: string, handler: RouteHandler): void {
    this.on("PUT", path, handler);
  }

  private guard(handler: RouteHandler): RouteHandler {
    return (req) => {
      const key = req.query.get("api_key");
      if (!key) return { success: false, error_code: 101, message: "Missing access_token" };
      if (key !== this.state.apiKey) return reply(403, { success: false, error_code: 105, message: "api_key is invalid" });
      const shopId = req.params.shop_id;
      if (shopId !== undefined && shopId !== String(this.state.shop.id)) {
        return reply(403, { success: false, message: "Insufficient permissions", permission: "shop" });
      }
      return handler(req);
    };
  }
}

/** An optional integer query parameter; anything else than an integer is a 400. */
export function intParam(req: SandboxRequest, name: string): number | undefined;
export function intParam(req: SandboxRequest, name: string, fallback: number): number;
export function intParam(req: SandboxRequest, name: string, fallback?: number): number | undefined {
  const raw = req.query.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^-?\d+$/.test(raw)) throw invalid();
  return Number(raw);
}

/** Values of an array parameter, sent as `name[]` (or plain repeated `name`). */
export function listParam(req: SandboxRequest, name: string): string[] {
  return [...req.query.getAll(`${name}[]`), ...req.query.getAll(name)];
}

export function boolParam(req: SandboxRequest, name: string): boolean {
  const raw = req.query.get(name);
  return raw === "true" || raw === "1";
}

export function requireParam(req: SandboxRequest, name: string): string {
  const value = req.query.get(name);
  if (!value) throw invalid();
  return value;
}

/** The JSON object body, or `body[key]` when the payload is wrapped (`{customer: {...}}`). */
export function bodyOf(req: SandboxRequest, key?: string): Record<string, unknown> {
  const body = req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalid();
  const inner = key ? (body as Record<string, unknown>)[key] : undefined;
  if (typeof inner === "object" && inner !== null && !Array.isArray(inner)) return inner as Record<string, unknown>;
  return body as Record<string, unknown>;
}

export interface PageOptions {
  /** `page_number` for orders, customers, variations and point logs; `page` elsewhere. */
  pageKey: "page" | "page_number";
  repeatAfter?: number;
  totalPages?: boolean;
}

/** One page of `items` in the paged envelope of the live service. */
export function paged<T>(req: SandboxRequest, items: readonly T[], options: PageOptions): Record<string, unknown> {
  return pagedView(req, () => ({ view: listView(items) }), options);
}

/** What a page is cut from (src/sandbox/ordering.ts): a list, what is left to test of each record, whether flagged ones are skipped. */
export interface Selection<T> {
  view: View<T>;
  keep?: (item: T) => boolean;
  skipFlagged?: boolean;
}

/**
 * One page of what `select` selects for a page ending at a given row, in the paged envelope: the
 * page is cut from its view, reading only the page where nothing is left to test.
 */
export function pagedView<T>(req: SandboxRequest, select: (end: number) => Selection<T>, options: PageOptions): Record<string, unknown> {
  const pageNumber = intParam(req, options.pageKey, 1);
  const requestedSize = intParam(req, "page_size", 30);
  if (pageNumber < 1 || requestedSize < 1) throw invalid();
  const pageSize = Math.min(requestedSize, MAX_PAGE_SIZE);
  const served = options.repeatAfter ? Math.min(pageNumber, options.repeatAfter) : pageNumber;
  const { view, keep, skipFlagged } = select(served * pageSize);
  const page = cut(view, (served - 1) * pageSize, served * pageSize, { keep, skipFlagged });
  const first = () => {
    const again = select(pageSize);
    return cut(again.view, 0, pageSize, { keep: again.keep, skipFlagged: again.skipFlagged }).rows;
  };
  const { rows, total = page.total } = misbehave(req.quirks, { ...page, later: pageNumber > 1, first });
  const envelope: Record<string, unknown> = {
    data: rows,
    page_number: pageNumber,
    page_size: pageSize,
    total_entries: total,
    success: true,
  };
  if (options.totalPages !== false) envelope.total_pages = Math.ceil(total / pageSize);
  return envelope;
}

/** Milliseconds of a query parameter given in Unix seconds, or undefined. */
export function unixParamMs(req: SandboxRequest, name: string): number | undefined {
  const value = intParam(req, name);
  return value === undefined ? undefined : value * 1000;
}
