// Builds src/clients/openapi/operations.json, the compact index of the vendor's OpenAPI files and
// the seed specs that the contract test and the `api` toolset read (parsing 2 MB of YAML takes
// most of a second; the index loads in milliseconds), and src/sandbox/openapi-examples.json, the
// documented answers the sandbox serves where it keeps no state. `--check` fails when either is stale.
//   npx tsx scripts/gen-openapi-index.ts [--check]
// The vendor files are read from vendor/openapi, copies kept in the repository so any clone can
// check the index (PANCAKE_OPENAPI_DIR reads another folder, e.g. a newer download).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { AMENDMENTS } from "../src/clients/openapi/allow-list.js";
import type { ApiName, AuthParam, Operation, OperationIndex, Parameter, Schema } from "../src/clients/openapi/types.js";
import { SEED_ENDPOINTS } from "./openapi/seed-operations.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const INDEX_FILE = join(root, "src/clients/openapi/operations.json");
export const EXAMPLES_FILE = join(root, "src/sandbox/openapi-examples.json");
export const referenceDir = () => resolve(root, process.env.PANCAKE_OPENAPI_DIR ?? "vendor/openapi");

const SOURCES = {
  messaging: "messaging-openapi.yaml",
  pos: "pos-openapi.yaml",
  older: "pos-openapi-examples-vi.json",
} as const;

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML of any shape, read field by field
type Doc = Record<string, any>;
const METHODS = ["get", "post", "put", "delete"] as const;
const AUTH_PARAMS = new Set(["api_key", "access_token", "page_access_token"]);
/** Descriptions are cut to their first sentence, at most this long: the index is for calling, not reading. */
const DESCRIPTION_MAX = 120;

function shortText(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  const line = text.replace(/<br\s*\/?>/g, " ").replace(/\s+/g, " ").trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  if (!sentence) return undefined;
  return sentence.length > DESCRIPTION_MAX ? `${sentence.slice(0, DESCRIPTION_MAX - 1)}…` : sentence;
}

function pointer(doc: Doc, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`external $ref ${ref}`);
  return ref
    .slice(2)
    .split("/")
    .map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node as Doc | undefined)?.[key], doc);
}

const JSON_TYPES = new Set(["string", "integer", "number", "boolean", "array", "object", "null"]);

/**
 * The schema subset the index keeps. OpenAPI 3.0 `nullable` becomes a "null" type, `allOf` is
 * merged, `oneOf` is read as `anyOf` (the contract asks that a value fits one form), a type name
 * JSON Schema lacks (`UUID`) is read as a string, and a `properties` entry that is not a schema
 * (`properties: {type: object}`, written for `type: object`) is dropped. A cycle ends in `{}`.
 */
function schemaOf(doc: Doc, node: unknown, depth: number, seen: Set<string> = new Set()): Schema {
  if (!node || typeof node !== "object") return {};
  let raw = node as Doc;
  if (typeof raw.$ref === "string") {
    if (seen.has(raw.$ref)) return {};
    const next = new Set(seen).add(raw.$ref);
    return schemaOf(doc, pointer(doc, raw.$ref), depth, next);
  }
  if (Array.isArray(raw.allOf)) {
    const parts = raw.allOf.map((part: unknown) => schemaOf(doc, part, depth, seen));
    const { allOf: _allOf, ...rest } = raw;
    raw = rest;
    const merged = schemaOf(doc, raw, depth, seen);
    for (const part of parts) {
      merged.type ??= part.type;
      if (part.properties) merged.properties = { ...part.properties, ...merged.properties };
      if (part.required) merged.required = [...new Set([...(merged.required ?? []), ...part.required])];
    }
    return merged;
  }
  const out: Schema = {};
  const alternatives = raw.oneOf ?? raw.anyOf;
  if (Array.isArray(alternatives)) out.anyOf = alternatives.map((alt: unknown) => schemaOf(doc, alt, depth, seen));
  const types = (Array.isArray(raw.type) ? raw.type : raw.type === undefined ? [] : [raw.type]).map((t: unknown) =>
    typeof t === "string" && JSON_TYPES.has(t) ? t : "string",
  );
  if (raw.nullable === true && types.length) types.push("null");
  if (types.length === 0 && raw.properties && typeof raw.properties === "object") types.push("object");
  if (types.length) out.type = types.length === 1 ? types[0] : [...new Set(types)];
  if (Array.isArray(raw.enum)) out.enum = raw.enum;
  else if (raw.const !== undefined) out.enum = [raw.const];
  if (raw.items) out.items = schemaOf(doc, raw.items, depth + 1, seen);
  if (raw.properties && typeof raw.properties === "object") {
    const props: Record<string, Schema> = {};
    for (const [key, value] of Object.entries(raw.properties)) {
      if (value && typeof value === "object") props[key] = schemaOf(doc, value, depth + 1, seen);
    }
    if (Object.keys(props).length) out.properties = props;
  }
  if (Array.isArray(raw.required) && out.properties) out.required = raw.required.filter((k: string) => k in out.properties!);
  if (out.required?.length === 0) delete out.required;
  if (raw.additionalProperties === true || (raw.additionalProperties && typeof raw.additionalProperties === "object")) {
    out.additionalProperties = raw.additionalProperties === true ? true : schemaOf(doc, raw.additionalProperties, depth + 1, seen);
  }
  const description = depth <= 2 ? shortText(raw.description) : undefined;
  if (description) out.description = description;
  return out;
}

function resolved<T>(doc: Doc, node: T): T {
  const ref = (node as { $ref?: string } | undefined)?.$ref;
  return ref ? (pointer(doc, ref) as T) : node;
}

const SERVER_ROOT = { messaging: "https://pages.fm/api", pos: "https://pos.pages.fm/api/v1" } as const;

function serverPrefix(api: ApiName, servers: { url: string }[] | undefined): string {
  const url = servers?.[0]?.url;
  if (!url) return "";
  if (!url.startsWith(SERVER_ROOT[api])) throw new Error(`unexpected ${api} server ${url}`);
  return url.slice(SERVER_ROOT[api].length);
}

function authOf(api: ApiName, op: Doc, docSecurity: unknown, params: Doc[]): AuthParam {
  if (api === "pos") return "api_key";
  const schemes = ((op.security ?? docSecurity ?? []) as Record<string, unknown>[]).flatMap((s) => Object.keys(s));
  if (schemes.includes("PageAccessToken")) return "page_access_token";
  if (schemes.includes("UserAccessToken")) return "access_token";
  const named = params.find((p) => AUTH_PARAMS.has(p.name));
  return named ? (named.name as AuthParam) : "none";
}

const lowerParams = (path: string) => path.replace(/\{([^}]+)\}/g, (_, name: string) => `{${name.toLowerCase()}}`);
export const operationId = (api: ApiName, method: string, path: string) => `${api} ${method} ${path}`;
/** A path with its parameter names blanked, to match the same route spelled with other names. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, "{}");

function operationsOf(api: ApiName, doc: Doc, source: Operation["source"]): Operation[] {
  const ops: Operation[] = [];
  for (const [rawPath, item] of Object.entries(doc.paths as Record<string, Doc>)) {
    for (const method of METHODS) {
      const op = item[method] as Doc | undefined;
      if (!op) continue;
      const rawParams = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Doc) => resolved(doc, p));
      const params: Parameter[] = rawParams
        .filter((p) => (p.in === "query" || p.in === "path") && !AUTH_PARAMS.has(p.name))
        .map((p) => {
          const description = shortText(p.description);
          return {
            name: p.in === "path" ? p.name.toLowerCase() : p.name,
            in: p.in,
            ...(p.required || p.in === "path" ? { required: true } : {}),
            schema: schemaOf(doc, p.schema, 1),
            ...(description ? { description } : {}),
          };
        });
      const path = serverPrefix(api, op.servers ?? item.servers) + lowerParams(rawPath);
      const content = resolved(doc, op.requestBody)?.content as Doc | undefined;
      const json = content?.["application/json"] ?? content?.["multipart/form-data"];
      const body = json
        ? {
            ...(resolved(doc, op.requestBody).required ? { required: true } : {}),
            schema: schemaOf(doc, json.schema, 0),
            ...(content?.["application/json"] ? {} : { multipart: true }),
          }
        : undefined;
      const tags = Array.isArray(op.tags) && op.tags.length ? op.tags : undefined;
      const entry: Operation = {
        id: operationId(api, method.toUpperCase(), path),
        api,
        method: method.toUpperCase() as Operation["method"],
        path,
        auth: authOf(api, op, doc.security, rawParams),
        summary: shortText(op.summary) ?? shortText(op.description) ?? "",
        ...(tags ? { tags } : {}),
        source,
        params,
        ...(body ? { body } : {}),
      };
      const example = exampleOf(doc, op);
      if (example !== undefined) EXAMPLES.set(entry, example);
      ops.push(entry);
    }
  }
  return ops;
}

/** The success answer each operation documents (its example, else one made from its schema). */
const EXAMPLES = new WeakMap<Operation, unknown>();

function exampleOf(doc: Doc, op: Doc): unknown {
  const responses = (op.responses ?? {}) as Doc;
  const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code));
  const content = status ? (resolved(doc, responses[status]) as Doc | undefined)?.content?.["application/json"] : undefined;
  if (!content) return undefined;
  if (content.example !== undefined) return trimExample(content.example);
  const named = content.examples ? resolved(doc, Object.values(content.examples as Doc)[0] as Doc) : undefined;
  if (named && "value" in named) return trimExample(named.value);
  return trimExample(fromSchema(doc, content.schema, 0, new Set()));
}

/** A value of a schema's shape: its examples where given, else the type's plainest value. */
function fromSchema(doc: Doc, node: unknown, depth: number, seen: Set<string>): unknown {
  if (!node || typeof node !== "object" || depth > 8) return null;
  const raw = node as Doc;
  if (typeof raw.$ref === "string") return seen.has(raw.$ref) ? null : fromSchema(doc, pointer(doc, raw.$ref), depth, new Set(seen).add(raw.$ref));
  if (raw.example !== undefined) return raw.example;
  if (Array.isArray(raw.allOf)) return Object.assign({}, ...raw.allOf.map((part: unknown) => fromSchema(doc, part, depth, seen)));
  const alternatives = raw.oneOf ?? raw.anyOf;
  if (Array.isArray(alternatives)) return fromSchema(doc, alternatives[0], depth, seen);
  if (Array.isArray(raw.enum)) return raw.enum[0];
  const type = Array.isArray(raw.type) ? raw.type[0] : raw.type;
  if (type === "array") return raw.items ? [fromSchema(doc, raw.items, depth + 1, seen)] : [];
  if (type === "object" || raw.properties) {
    const props = (raw.properties ?? {}) as Doc;
    // `success` is the envelope's flag: a made-up answer is a successful one.
    const entries = Object.entries(props).filter(([, v]) => v && typeof v === "object");
    return Object.fromEntries(entries.map(([k, v]) => [k, k === "success" ? true : fromSchema(doc, v, depth + 1, seen)]));
  }
  return type === "integer" || type === "number" ? 0 : type === "boolean" ? false : type === "string" ? "" : null;
}

/** Examples are kept small: lists to 3 items, text to 200 characters. */
function trimExample(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 3).map(trimExample);
  if (typeof value === "string") return value.length > 200 ? value.slice(0, 200) : value;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimExample(v)]));
  return value;
}

/** Adds what a seed endpoint states and the matching operation lacks, or the seed's own operation. */
function mergeSeed(ops: Operation[]): void {
  for (const seed of SEED_ENDPOINTS) {
    const found = ops.find((op) => op.api === seed.api && op.method === seed.method && shape(op.path) === shape(seed.path));
    if (!found) {
      if (!seed.summary || !seed.auth) throw new Error(`seed endpoint ${seed.method} ${seed.path} is in no OpenAPI: give its summary and auth`);
      const pathParams: Parameter[] = [...seed.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
        name: name!,
        in: "path",
        required: true,
        schema: { type: "string" },
      }));
      ops.push({
        id: operationId(seed.api, seed.method, seed.path),
        api: seed.api,
        method: seed.method,
        path: seed.path,
        auth: seed.auth,
        summary: seed.summary,
        source: "seed",
        params: [...pathParams, ...(seed.params ?? [])],
        ...(seed.body ? { body: { required: true, schema: seed.body } } : {}),
      });
      continue;
    }
    for (const param of seed.params ?? []) {
      if (found.params.some((p) => p.name === param.name && p.in === param.in)) continue;
      // A parameter only the seed states is optional here: the OpenAPI form works without it.
      const { required: _required, ...optional } = param;
      found.params.push({ ...optional, description: `${param.description ?? ""} (seed spec)`.trim() });
    }
    if (seed.body) {
      if (!found.body) throw new Error(`${found.id}: the seed adds body fields to an operation without a body`);
      mergeFields(found.id, found.body.schema, seed.body);
    }
  }
}

/** Applies the allow-list; in the newest documents every entry must still find its operation. */
function amend(ops: Operation[], strict: boolean): Operation[] {
  for (const amendment of AMENDMENTS) {
    const op = ops.find((o) => o.id === amendment.op);
    if (!op) {
      if (strict) throw new Error(`allow-list entry for ${amendment.op}: no such operation`);
      continue;
    }
    amendment.apply(op);
    op.id = operationId(op.api, op.method, op.path);
  }
  return ops;
}

/** Adds the seed's fields an object schema lacks, at any depth; the OpenAPI's own fields stay. */
function mergeFields(id: string, target: Schema, extra: Schema): void {
  for (const [key, value] of Object.entries(extra.properties ?? {})) {
    const mine = target.properties?.[key];
    if (!target.properties) throw new Error(`${id}: the seed adds ${key} to a body without properties`);
    if (!mine) target.properties[key] = { ...value, description: "(seed spec)" };
    else if (value.properties) mergeFields(id, mine, value);
  }
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

export function buildIndex(dir = referenceDir()): OperationIndex {
  const text = Object.fromEntries(Object.entries(SOURCES).map(([key, file]) => [key, readFileSync(join(dir, file), "utf8")])) as Record<
    keyof typeof SOURCES,
    string
  >;
  const messaging = parse(text.messaging, { maxAliasCount: -1 }) as Doc;
  const pos = parse(text.pos, { maxAliasCount: -1 }) as Doc;
  const older = JSON.parse(text.older) as Doc;

  const ops = amend([...operationsOf("messaging", messaging, "openapi"), ...operationsOf("pos", pos, "openapi")], true);
  // The older POS document adds only the operations the newest one no longer lists.
  const known = new Set(ops.map((op) => `${op.api} ${op.method} ${shape(op.path)}`));
  for (const op of amend(operationsOf("pos", older, "older"), false)) {
    if (!known.has(`${op.api} ${op.method} ${shape(op.path)}`)) ops.push(op);
  }
  mergeSeed(ops);

  const ids = new Set<string>();
  for (const op of ops) {
    if (ids.has(op.id)) throw new Error(`two operations are ${op.id}`);
    ids.add(op.id);
    const inPath = [...op.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name!);
    const declared = op.params.filter((p) => p.in === "path").map((p) => p.name);
    if (inPath.length !== declared.length || inPath.some((n) => !declared.includes(n))) {
      throw new Error(`${op.id}: path parameters ${declared.join(",")} do not fit the path`);
    }
  }
  ops.sort((a, b) => a.api.localeCompare(b.api) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  return {
    sources: Object.fromEntries(Object.entries(SOURCES).map(([key, file]) => [file, hash(text[key as keyof typeof SOURCES])])),
    operations: ops,
  };
}

/** The documented success answer of each operation that has one, by operation id (the sandbox serves them). */
export function examplesOf(index: OperationIndex): Record<string, unknown> {
  return Object.fromEntries(index.operations.flatMap((op) => (EXAMPLES.has(op) ? [[op.id, EXAMPLES.get(op)]] : [])));
}

export const serializeExamples = (examples: Record<string, unknown>) =>
  `{\n${Object.entries(examples).map(([id, value]) => `${JSON.stringify(id)}:${JSON.stringify(value)}`).join(",\n")}\n}\n`;

/** One operation a line: diffs stay readable and the file stays compact. */
export function serialize(index: OperationIndex): string {
  const lines = index.operations.map((op) => `  ${JSON.stringify(op)}`);
  return `{"sources":${JSON.stringify(index.sources)},\n"operations":[\n${lines.join(",\n")}\n]}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const index = buildIndex();
  const files: [string, string][] = [
    [INDEX_FILE, serialize(index)],
    [EXAMPLES_FILE, serializeExamples(examplesOf(index))],
  ];
  for (const [file, next] of files) {
    if (!process.argv.includes("--check")) {
      writeFileSync(file, next);
      console.log(`wrote ${file}: ${next.length} bytes`);
    } else if (readFileSync(file, "utf8") !== next) {
      console.error(`${file} is stale: run npm run openapi`);
      process.exit(1);
    }
  }
}
