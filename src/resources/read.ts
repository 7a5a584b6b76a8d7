import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { InputError, NotFoundError } from "../clients/errors.js";
import { outboundJson } from "../outbound.js";
import { idInput, pageRef } from "../tools/inputs.js";
import type { ResourceContext } from "./define.js";
import { resources } from "./index.js";

/** MCP's code for a resource that does not exist (the SDK itself answers -32602). */
export const RESOURCE_NOT_FOUND = -32002;

const matchers = resources.map((resource) => ({
  resource,
  template: resource.uri.includes("{") ? new UriTemplate(resource.uri) : undefined,
}));

// A template variable goes upstream like a tool's id (often into a URL path): the same rule. A
// page may be named, as in the tools; the name is resolved to an id before any path is built.
const variable = idInput("template variable");
const variableOf = (name: string) => (name === "page_id" ? pageRef : variable);

const notFound = (uri: string, why: string) => new McpError(RESOURCE_NOT_FOUND, `Resource ${uri} not found: ${why}`, { uri });

/**
 * resources/read for every resource: the URI matched exactly or against a template, each
 * variable validated as a tool id is, the data scrubbed on the way out. A URI that names nothing,
 * a variable that fails validation and a record the upstream does not have all answer -32002.
 */
export async function readResource(uri: string, ctx: ResourceContext) {
  for (const { resource, template } of matchers) {
    const matched = template ? template.match(uri) : resource.uri === uri ? {} : null;
    if (!matched) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(matched)) {
      const raw = Array.isArray(value) ? (value[0] ?? "") : value;
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
