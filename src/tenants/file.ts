import { readFileSync } from "node:fs";
import { z } from "zod";
import { CONFIRM_MODES, type Config, configSchema, toolList, toolsetList } from "../config.js";
import { unknownTools } from "../tools/index.js";

/**
 * The tenants file (PANCAKE_MCP_TENANTS): one entry per tenant (a shop, or an agency's client),
 * each reached with its own MCP bearer token, stored only as its SHA-256, and served with its own
 * Pancake credentials, toolsets and read-only flag. Settings an entry leaves out (time zone, base
 * URLs, toolsets, ...) come from the environment; credentials never do.
 *
 *   {"tenants": [{"id": "may-fashion", "token_sha256": "<64 hex>", "access_token": "...",
 *     "pos_api_key": "..." | {"<shop_id>": "..."}, "page_access_tokens": {"<page_id>": "..."},
 *     "call_center_ids": {"<page_id>": "<package id>"},
 *     "toolsets": "default,finance", "tools": [...], "read_only": true, "timezone": "...",
 *     "confirm_writes": "always", "webhook_secret": "..."}]}
 */
// Built on first use: schema objects cost start-up time in every mode, and only --http with a
// tenants file reads one.
const schemas = () => {
  const text = z.string().trim().min(1);
  const tenantSchema = z.strictObject({
    /** Names the tenant in logs, metrics and state keys: not a secret. */
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "1-64 letters, digits, '_', '.' or '-', starting with a letter or digit"),
    token_sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, "the SHA-256 of the tenant's bearer token, 64 hex digits (printf %s \"$TOKEN\" | sha256sum)")
      .transform((hex) => hex.toLowerCase()),
    access_token: text.optional(),
    page_access_tokens: z.record(text, text).optional(),
    /** The pages' call-centre package ids (PANCAKE_CALL_CENTER_IDS for this tenant). */
    call_center_ids: z.record(text, text).optional(),
    pos_api_key: z.union([text, z.record(z.string().regex(/^\d+$/, "shop ids are numbers"), text)]).optional(),
    /** The secret the tenant's webhooks are received with (src/webhooks.ts). */
    webhook_secret: text.optional(),
    toolsets: z.union([z.string(), z.array(z.string()).transform((names) => names.join(","))]).pipe(toolsetList).optional(),
    tools: z.union([z.string(), z.array(z.string()).transform((names) => names.join(","))]).pipe(toolList).optional(),
    read_only: z.boolean().optional(),
    confirm_writes: z.enum(CONFIRM_MODES).optional(),
    timezone: z.string().optional(),
    /** A tenant on other upstream addresses (a staging account); default the environment's. */
    base_url: z.string().optional(),
    pos_base_url: z.string().optional(),
  });
  return { tenantSchema, fileSchema: z.strictObject({ tenants: z.array(tenantSchema) }) };
};
let built: ReturnType<typeof schemas> | undefined;

export type TenantEntry = z.output<ReturnType<typeof schemas>["tenantSchema"]>;

export interface TenantSpec {
  id: string;
  /** SHA-256 of the bearer token, lower-case hex. */
  tokenDigest: string;
  config: Config;
}

export class TenantsFileError extends Error {}

/** Reads and checks the file; every problem is named with its tenant and field. */
export function readTenantsFile(path: string, base: Config): TenantSpec[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new TenantsFileError(`PANCAKE_MCP_TENANTS: cannot read ${path} as JSON (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`);
  }
  built ??= schemas();
  const parsed = built.fileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${describePath(raw, issue.path)}: ${issue.message}`);
    throw new TenantsFileError(`PANCAKE_MCP_TENANTS (${path}):\n  ${problems.join("\n  ")}`);
  }
  const specs: TenantSpec[] = [];
  const problems: string[] = [];
  const ids = new Set<string>();
  const digests = new Set<string>();
  const hooks = new Set<string>();
  for (const entry of parsed.data.tenants) {
    if (ids.has(entry.id)) problems.push(`tenant ${entry.id}: the id is used twice`);
    if (digests.has(entry.token_sha256)) problems.push(`tenant ${entry.id}: token_sha256 is another tenant's too (each tenant needs its own token)`);
    if (entry.webhook_secret !== undefined && hooks.has(entry.webhook_secret)) problems.push(`tenant ${entry.id}: webhook_secret is another tenant's too (it says whose shop a delivery is for)`);
    ids.add(entry.id);
    digests.add(entry.token_sha256);
    if (entry.webhook_secret !== undefined) hooks.add(entry.webhook_secret);
    const config = tenantConfig(entry, base);
    if (typeof config === "string") problems.push(`tenant ${entry.id}: ${config}`);
    else specs.push({ id: entry.id, tokenDigest: entry.token_sha256, config });
  }
  if (problems.length > 0) throw new TenantsFileError(`PANCAKE_MCP_TENANTS (${path}):\n  ${problems.join("\n  ")}`);
  return specs;
}

/** The tenant's config: the environment's settings, the entry's own credentials (never the environment's). */
function tenantConfig(entry: TenantEntry, base: Config): Config | string {
  const posKey = entry.pos_api_key;
  const result = configSchema.safeParse({
    ...base,
    accessToken: entry.access_token,
    pageAccessTokens: entry.page_access_tokens ?? {},
    // The account's own page ids, like its credentials: never another tenant's, never the environment's.
    callCenterIds: entry.call_center_ids ?? {},
    posApiKeys: typeof posKey === "string" ? { "*": posKey } : (posKey ?? {}),
    toolsets: entry.toolsets ?? base.toolsets,
    tools: entry.tools ?? (entry.toolsets ? undefined : base.tools),
    readOnly: base.readOnly || (entry.read_only ?? false),
    confirmWrites: entry.confirm_writes ?? base.confirmWrites,
    timezone: entry.timezone ?? base.timezone,
    baseUrl: entry.base_url ?? base.baseUrl,
    posBaseUrl: entry.pos_base_url ?? base.posBaseUrl,
    mcpToken: undefined,
    webhookSecret: entry.webhook_secret,
  });
  if (!result.success) return result.error.issues.map((i) => `${String(i.path[0] ?? "")}: ${i.message}`).join("; ");
  return unknownTools(result.data.tools) ?? result.data;
}

/** `tenants[2] (shop-b).access_token`: where a problem is, by tenant id when it has one. */
function describePath(raw: unknown, path: readonly PropertyKey[]): string {
  if (path[0] !== "tenants" || typeof path[1] !== "number") return path.join(".") || "the file";
  const id = (raw as { tenants?: { id?: unknown }[] }).tenants?.[path[1]]?.id;
  const who = `tenants[${path[1]}]${typeof id === "string" ? ` (${id.slice(0, 64)})` : ""}`;
  return [who, ...path.slice(2).map(String)].join(".");
}
