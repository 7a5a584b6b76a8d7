import type { Sandbox } from "../../src/sandbox/index.js";
import { Reply, type SandboxRequest } from "../../src/sandbox/server.js";

/**
 * A GET answered by the sandbox's router directly, no socket, no rate limit, no latency: the
 * route's own answer (its body for a Reply), for tests of many list reads and for timing the rig.
 */
export function routerGet(sandbox: Sandbox, path: string, query: Record<string, string | number | (string | number)[]>): unknown {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of [v].flat()) params.append(k, String(one));
  const found = sandbox.server.router.match("GET", path);
  if (!found) throw new Error(`no route GET ${path}`);
  const req: SandboxRequest = { method: "GET", path, query: params, params: found.params, headers: {}, body: undefined };
  try {
    const result = found.route.handler(req);
    return result instanceof Reply ? result.body : result;
  } catch (error) {
    if (error instanceof Reply) return error.body;
    throw error;
  }
}
