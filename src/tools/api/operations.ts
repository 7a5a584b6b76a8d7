import { loadOperations, type Operation, type Schema } from "../../clients/openapi/index.js";
import { fold } from "../../text/fold.js";
import { CURATED } from "./curated.js";

/** Operation ids are matched without regard to case or the spacing around them. */
export const normalizeId = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

export async function operationById(id: string): Promise<Operation | undefined> {
  const wanted = normalizeId(id);
  return (await loadOperations()).operations.find((op) => normalizeId(op.id) === wanted);
}

const words = (text: string) =>
  fold(text)
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1)
    .map((w) => (w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w));

/** The verbs a request for each method is asked with. */
const VERBS: Record<Operation["method"], string> = {
  GET: "list get read show find",
  POST: "create add new send make",
  PUT: "update change edit set",
  DELETE: "delete remove",
};

/** The words an operation is found by, weighted: its path, then its summary, then the rest. */
function fieldsOf(op: Operation): [string[], number][] {
  const body = Object.keys(op.body?.schema.properties ?? {});
  return [
    [words(op.path.replace(/\{[^}]+\}/g, "")), 3],
    [words(`${op.summary} ${VERBS[op.method]}`), 2],
    [words([...(op.tags ?? []), ...op.params.map((p) => p.name), ...body, op.api].join(" ")), 1],
  ];
}

/** The operations that best match the words of `query`, best first (ties in index order). */
export async function searchOperations(query: string, limit: number, api?: "pos" | "messaging"): Promise<Operation[]> {
  const wanted = words(query);
  const { operations } = await loadOperations();
  const scored = operations
    .filter((op) => !api || op.api === api)
    .map((op, index) => {
      const fields = fieldsOf(op);
      const score = wanted.reduce((sum, w) => sum + Math.max(0, ...fields.map(([list, weight]) => (list.includes(w) ? weight : list.some((x) => x.startsWith(w)) ? weight / 2 : 0))), 0);
      return { op, score, index };
    })
    .filter((row) => row.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((row) => row.op);
}

/** A schema as a short type text: `{name*: string, items: [{id: string}]}`, cut at `budget` characters. */
export function shapeOf(schema: Schema, budget: number, depth = 0): string {
  const out = shape(schema, depth);
  return out.length > budget ? `${out.slice(0, budget - 1)}…` : out;
}

function shape(schema: Schema, depth: number): string {
  if (schema.anyOf) return schema.anyOf.map((alt) => shape(alt, depth)).join(" | ");
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type ?? "any"]).filter((t) => t !== "null");
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join("|");
  if (types.includes("array")) return `[${schema.items ? shape(schema.items, depth) : "any"}]`;
  if (schema.properties) {
    if (depth >= 3) return "{…}";
    const required = new Set(schema.required ?? []);
    return `{${Object.entries(schema.properties)
      .map(([key, value]) => `${key}${required.has(key) ? "*" : ""}: ${shape(value, depth + 1)}`)
      .join(", ")}}`;
  }
  return types.join("|") || "any";
}

/** What a model needs to call an operation: its parameters and body shape, and the tool to prefer. */
export function describeOperation(op: Operation, bodyBudget: number) {
  const curated = CURATED[op.id];
  return {
    id: op.id,
    summary: op.summary,
    ...(op.source === "openapi" ? {} : { documented_in: op.source === "seed" ? "seed spec" : "older POS document" }),
    ...(curated ? { use_tool: curated.map(([tool]) => tool).join(" or ") } : {}),
    params: op.params.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required || undefined,
      required_unless: p.requiredUnless && `${p.requiredUnless.param} matches ${p.requiredUnless.matches}`,
      type: shapeOf(p.schema, 300),
      description: p.description,
    })),
    body: op.body ? `${op.body.multipart ? "multipart " : ""}${shapeOf(op.body.schema, bodyBudget)}` : undefined,
  };
}
