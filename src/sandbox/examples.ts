import examples from "./openapi-examples.json" with { type: "json" };
import operations from "../clients/openapi/operations.json" with { type: "json" };
import type { OperationIndex } from "../clients/openapi/types.js";
import { onPage, type RouteContext, requireUser } from "./messaging/guards.js";
import type { PosApi } from "./pos/api.js";
import type { Router, SandboxRequest } from "./server.js";

const documented = examples as Record<string, unknown>;
const shape = (path: string) => path.replace(/:\w+/g, ":");

/**
 * Every documented operation the sandbox keeps no state for answers with its documented example
 * (scripts/gen-openapi-index.ts extracts them), behind the same credential checks as the rest: the
 * demo and the tests reach the whole API, and hand-written routes win where state matters.
 */
export function registerExamples(router: Router, pos: PosApi, messaging: RouteContext, prefixes: { pos: string; messaging: string }): void {
  for (const op of (operations as unknown as OperationIndex).operations) {
    if (!(op.id in documented)) continue;
    const route = op.path.replace(/\{([^}]+)\}/g, ":$1");
    const full = `${op.api === "pos" ? prefixes.pos : prefixes.messaging}${route}`;
    // A hand-written route of the same shape serves it (one of another shape, /orders/:order_id
    // for /orders/tag_groups, does not: the more literal route registered here wins).
    const served = router.match(op.method, full.replace(/:\w+/g, "1"))?.route.path;
    if (served !== undefined && shape(served) === shape(full)) continue;
    const answer = () => structuredClone(documented[op.id]);
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
