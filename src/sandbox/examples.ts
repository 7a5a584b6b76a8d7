import examples from "./openapi-examples.json" with { type: "json" };
import operations from "../clients/openapi/operations.json" with { type: "json" };
import type { OperationIndex } from "../clients/openapi/types.js";
import { onPage, type RouteContext, requireUser } from "./messaging/guards.js";
import type { PosApi } from "./pos/api.js";
import type { Router, SandboxRequest } from "./server.js";

const documented = examples as Record<string, unknown>;
const shape = (path: string) => path.replace(/:\w+/g, ":");

/** Every documented operation: its route below its API's prefix (`:name` segments), its example if any. */
function documentedRoutes(prefixes: { pos: string; messaging: string }) {
  return (operations as unknown as OperationIndex).operations.map((op) => {
    const route = op.path.replace(/\{([^}]+)\}/g, ":$1");
    return { op, route, full: `${op.api === "pos" ? prefixes.pos : prefixes.messaging}${route}`, example: documented[op.id] };
  });
}

/**
 * Every documented operation the sandbox keeps no state for answers with its documented example
 * (scripts/gen-openapi-index.ts extracts them), behind the same credential checks as the rest: the
 * demo and the tests reach the whole API, and hand-written routes win where state matters.
 */
export function registerExamples(router: Router, pos: PosApi, messaging: RouteContext, prefixes: { pos: string; messaging: string }): void {
  for (const { op, route, full, example } of documentedRoutes(prefixes)) {
    if (example === undefined) continue;
    // A hand-written route of the same shape serves it (one of another shape, /orders/:order_id
    // for /orders/tag_groups, does not: the more literal route registered here wins).
    const served = router.match(op.method, full.replace(/:\w+/g, "1"))?.route.path;
    if (served !== undefined && shape(served) === shape(full)) continue;
    const answer = () => structuredClone(example);
    if (op.api === "pos") pos.on(op.method, route, answer);
    else if (op.auth === "page_access_token") onPage(router, messaging, op.method, prefixes.messaging + route, answer);
    else if (op.auth === "access_token") {
      router.on(op.method, prefixes.messaging + route, (req: SandboxRequest) => {
        requireUser(messaging, req);
        return answer();
      });
    } else router.on(op.method, prefixes.messaging + route, answer);
  }
}

/**
 * Every documented operation answered with its example and nothing else (SandboxOptions.upstream
 * "examples"), whatever the credentials: the vendor's documents taken at their word, as an
 * independent check of the requests does (issue 43; the examples name other shops and pages). A
 * list's later pages (a page number past 1, a cursor, a count already read) answer no rows, its
 * totals are the example's, its rows carry the example's dates; an operation the documents give no
 * answer for answers `{"success": true}`.
 */
export function registerExamplesOnly(router: Router, prefixes: { pos: string; messaging: string }): void {
  for (const { op, full, example = { success: true } } of documentedRoutes(prefixes)) {
    router.on(op.method, full, (req) => (laterPage(req) ? withoutRows(example) : structuredClone(example)));
  }
}

/** Whether a request asks past a list's first page: a page number past 1, a cursor, a count already read. */
function laterPage(req: SandboxRequest): boolean {
  const number = (name: string) => Number(req.query.get(name) ?? "");
  return number("page_number") > 1 || number("page") > 1 || number("current_count") > 0 || !!req.query.get("last_conversation_id");
}

/** The example with its lists emptied (the top-level arrays: data, conversations, customers...), its totals kept. */
function withoutRows(example: unknown): unknown {
  if (Array.isArray(example)) return [];
  if (typeof example !== "object" || example === null) return example;
  return Object.fromEntries(Object.entries(structuredClone(example)).map(([key, value]) => [key, Array.isArray(value) ? [] : value]));
}
