import type { ApiName, Operation, Parameter } from "./types.js";
import { fromQueryText, validate } from "./validate.js";

/** A request as it reached the upstream: path below the API's base URL, query as sent. */
export interface SentRequest {
  api: ApiName;
  method: string;
  path: string;
  query: Record<string, string[]>;
  body?: unknown;
}

interface Route {
  op: Operation;
  pattern: RegExp;
  names: string[];
  literals: number;
}

const routeCache = new WeakMap<readonly Operation[], Route[]>();

function routesOf(operations: readonly Operation[]): Route[] {
  let routes = routeCache.get(operations);
  if (!routes) {
    routes = operations.map((op) => {
      const names: string[] = [];
      const source = op.path
        .split("/")
        .map((segment) => {
          const param = /^\{([^}]+)\}$/.exec(segment);
          if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          names.push(param[1]!);
          return "([^/]+)";
        })
        .join("/");
      return { op, pattern: new RegExp(`^${source}/?$`), names, literals: op.path.split("/").filter((s) => s && !s.startsWith("{")).length };
    });
    // A literal segment wins over a parameter: /orders/tags is not the order "tags".
    routes.sort((a, b) => b.literals - a.literals);
    routeCache.set(operations, routes);
  }
  return routes;
}

/** The operation a request line names, and its path parameters (decoded). */
export function findOperation(
  operations: readonly Operation[],
  api: ApiName,
  method: string,
  path: string,
): { op: Operation; pathParams: Record<string, string> } | undefined {
  for (const route of routesOf(operations)) {
    if (route.op.api !== api || route.op.method !== method) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    const pathParams: Record<string, string> = {};
    route.names.forEach((name, i) => {
      pathParams[name] = decodeURIComponent(m[i + 1]!);
    });
    return { op: route.op, pathParams };
  }
  return undefined;
}

/**
 * What a sent request breaks of the contract: no operation, a missing or extra credential, a
 * path parameter of the wrong type, a query parameter the operation does not take (or of the
 * wrong type, or repeated when single), a missing required one, or a body that does not fit.
 */
export function checkRequest(operations: readonly Operation[], request: SentRequest): { op?: Operation; problems: string[] } {
  const found = findOperation(operations, request.api, request.method, request.path);
  if (!found) return { problems: [`${request.api} ${request.method} ${request.path}: no documented operation`] };
  const { op, pathParams } = found;
  const problems: string[] = [];
  for (const param of op.params) {
    if (param.in === "path") validate(param.schema, fromQueryText(param.schema, pathParams[param.name] ?? ""), `path.${param.name}`, problems);
  }
  const credentials = ["api_key", "access_token", "page_access_token"].filter((name) => request.query[name]);
  if (op.auth !== "none" && !credentials.includes(op.auth)) problems.push(`query.${op.auth}: the credential is missing`);
  for (const name of credentials) if (name !== op.auth) problems.push(`query.${name}: this operation takes ${op.auth === "none" ? "no credential" : op.auth}`);
  for (const [name, values] of Object.entries(request.query)) {
    if (name === op.auth) continue;
    if (credentials.includes(name)) continue;
    const param = op.params.find((p) => p.in === "query" && p.name === name);
    if (!param) {
      const documented = op.params.filter((p) => p.in === "query").map((p) => p.name);
      problems.push(`query.${name}: not a parameter of this operation (documented: ${documented.join(", ") || "none"})`);
      continue;
    }
    const isArray = param.schema.type === "array";
    if (!isArray && values.length > 1) problems.push(`query.${name}: sent ${values.length} times, documented as one value`);
    const itemSchema = isArray ? (param.schema.items ?? {}) : param.schema;
    values.forEach((text, i) => {
      validate(itemSchema, fromQueryText(itemSchema, text), isArray ? `query.${name}[${i}]` : `query.${name}`, problems);
    });
  }
  for (const param of op.params) {
    if (param.in === "query" && !request.query[param.name] && requiredWith(param, (name) => request.query[name]?.[0])) problems.push(`query.${param.name}: is required`);
  }
  if (op.body && !op.body.multipart) {
    if (request.body === undefined) {
      if (op.body.required) problems.push("body: is required");
    } else validate(op.body.schema, request.body, "body", problems);
  } else if (request.body !== undefined && !op.body) problems.push("body: this operation takes no body");
  return { op, problems: problems.map((p) => `${op.id}: ${p}`) };
}

/** Whether a parameter must be sent, given the other values of the call (`requiredUnless`). */
export function requiredWith(param: Parameter, sent: (name: string) => unknown): boolean {
  if (!param.required) return false;
  const unless = param.requiredUnless;
  return !unless || !new RegExp(unless.matches).test(String(sent(unless.param) ?? ""));
}
