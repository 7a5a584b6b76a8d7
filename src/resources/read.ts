import { InputError, NotFoundError } from "../clients/errors.js";
import { outboundJson } from "../outbound.js";
import { INVALID_PARAMS, RpcError } from "../rpc-error.js";
import { idInput, pageRef } from "../tools/inputs.js";
import type { ResourceContext } from "./define.js";
import { resources } from "./index.js";

/**
 * A template's variables as a URI gives them, or null when it does not match. The templates are
 * RFC 6570 level 1 with each {variable} a whole path segment, so a variable is one segment, taken
 * raw (read below).
 */
function templateMatcher(template: string): (uri: string) => Record<string, string> | null {
  const parts = template.split(/\{(\w+)\}/);
  const names = parts.filter((_, i) => i % 2 === 1);
  const pattern = new RegExp(`^${parts.map((part, i) => (i % 2 ? "([^/?#]+)" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("")}$`);
  return (uri) => {
    const m = pattern.exec(uri);
    return m ? Object.fromEntries(names.map((name, i) => [name, m[i + 1]!])) : null;
  };
}

const matchers = resources.map((resource) => ({
  resource,
  match: resource.uri.includes("{") ? templateMatcher(resource.uri) : (uri: string): Record<string, string> | null => (uri === resource.uri ? {} : null),
}));

// A template variable goes upstream like a tool's id (often into a URL path): the same rule. A
// page may be named, as in the tools; the name is resolved to an id before any path is built.
const variable = idInput("template variable");
const variableOf = (name: string) => (name === "page_id" ? pageRef : variable);

// Resource not found is -32602 with the URI as its only data (MCP 2026-07-28; what the SDK sends in every era).
const notFound = (uri: string, why: string) => new RpcError(INVALID_PARAMS, `Resource ${uri} not found: ${why}`, { uri });

/**
 * resources/read for every resource: the URI matched exactly or against a template, each
 * variable validated as a tool id is, the data scrubbed on the way out. A URI that names nothing,
 * a variable that fails validation and a record the upstream does not have all answer "not found".
 */
export async function readResource(uri: string, ctx: ResourceContext) {
  for (const { resource, match } of matchers) {
    const matched = match(uri);
    if (!matched) continue;
    const params: Record<string, string> = {};
    for (const [name, raw] of Object.entries(matched)) {
      // Clients expand templates with percent-encoding ("Mây Kids" -> M%C3%A2y%20Kids): read it back
      // before the value is checked like any other.
      let text: string;
      try {
        text = decodeURIComponent(raw);
      } catch {
        throw notFound(uri, `${name} is not valid percent-encoding`);
      }
      const checked = variableOf(name).safeParse(text);
      if (!checked.success) throw notFound(uri, `${name} ${checked.error.issues[0]?.message ?? "is not a valid id"}`);
      params[name] = checked.data;
    }
    let data: unknown;
    try {
      data = await resource.read(params, ctx);
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof InputError) throw notFound(uri, error.message);
      throw error;
    }
    return { contents: [{ uri, mimeType: "application/json", text: outboundJson(data).text }] };
  }
  throw notFound(uri, "no resource or template has this URI");
}
