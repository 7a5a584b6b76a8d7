/**
 * The compact index of the vendor's OpenAPI files and the seed specs (operations.json, written by
 * scripts/gen-openapi-index.ts). The contract test checks every upstream request against it, and
 * the `api` toolset finds and calls operations through it.
 */

export type ApiName = "messaging" | "pos";

/** Where an operation is documented: the newest OpenAPI, the seed spec, or the older POS document. */
export type OperationSource = "openapi" | "seed" | "older";

/** The query parameter that carries the credential (none: a public route). */
export type AuthParam = "api_key" | "access_token" | "page_access_token" | "none";

/** The JSON Schema subset the index keeps (OpenAPI 3.0 `nullable` folded into `type`). */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  /** true (or absent with no `properties`): free-form; a schema: the type of every other key. */
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  description?: string;
}

export interface Parameter {
  name: string;
  in: "path" | "query";
  required?: boolean;
  /** Required, except where the query parameter `param` matches the pattern `matches` (an amendment, allow-list.ts). */
  requiredUnless?: { param: string; matches: string };
  schema: Schema;
  description?: string;
}

export interface Operation {
  /** `<api> <METHOD> <path>`: the request line itself, unique. */
  id: string;
  api: ApiName;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Below the API's base URL; messaging paths start with their server prefix (/v1, /public_api/v1, ...). */
  path: string;
  auth: AuthParam;
  summary: string;
  tags?: string[];
  source: OperationSource;
  params: Parameter[];
  body?: { required?: boolean; schema: Schema; multipart?: boolean };
}

export interface OperationIndex {
  /** sha256 of each source file the index was built from (the freshness check compares them). */
  sources: Record<string, string>;
  operations: Operation[];
}
