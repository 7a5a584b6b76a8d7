import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { InputError } from "../clients/errors.js";

/**
 * Cursors are opaque to callers: base64url JSON naming the tool and its upstream position (and the
 * first call's filters), so a tool can switch list variants or walk time windows without the
 * caller knowing. What a cursor carries goes upstream, so it is signed: `<payload>.<mac>`, an
 * HMAC-SHA256 (first 128 bits) over the tool's name, the call's bound arguments and the payload.
 * An edited, truncated or borrowed cursor is refused before anything is sent.
 */

/**
 * The arguments a cursor is bound to: they name where the list lives and do not travel in the
 * cursor. The filters do travel in it (signed), so following pages repeat the first call's
 * filters whatever else is sent along; binding those too would refuse the common follow-up that
 * sends only the cursor.
 */
const BOUND_ARGS = ["page_id", "shop_id", "conversation_id"] as const;

/**
 * The key of the tenant a call is served for, set on its parsed input by runTool (a symbol: it is
 * no argument, never serialized, and travels with the input into every helper that signs or
 * checks a cursor). One tenant's cursors are refused in another's calls, even on the same page.
 */
export const CURSOR_KEY: unique symbol = Symbol("cursor key");

/** The tool input a cursor is read from or written for: the cursor and the arguments it is bound to. */
export type CursorCall = { cursor?: string | undefined; [CURSOR_KEY]?: Buffer } & { [K in (typeof BOUND_ARGS)[number]]?: unknown };

let key: Buffer = randomBytes(32);

/**
 * The signing key. Several replicas behind one load balancer must agree on it, since a cursor
 * from one may come back to another:
 * - `PANCAKE_MCP_CURSOR_KEY` when set (rotating it invalidates the cursors in flight, nothing else);
 * - else derived from the configured credentials through HMAC, so replicas started with the same
 *   configuration agree without another secret to distribute, and the key reveals nothing about the
 *   credentials. Whoever knows the credentials could forge a cursor, but could call the upstream
 *   directly with them anyway;
 * - with no credential configured (no data to protect), a random key per process.
 */
export function setCursorKey(configured: string | undefined, secrets: readonly (string | undefined)[]): void {
  key = cursorKeyOf(configured, secrets);
}

/** The key a tenant's cursors are signed with: its own, else the process's (server.ts derives its requestState seal from it). */
export const signingKey = (tenantKey?: Buffer): Buffer => tenantKey ?? key;

/**
 * The key the rules above give for a configured key or a set of credentials; `scope` (a tenant's
 * id) makes it that tenant's own, so tenants sharing PANCAKE_MCP_CURSOR_KEY or credentials still
 * cannot use each other's cursors.
 */
export function cursorKeyOf(configured: string | undefined, secrets: readonly (string | undefined)[], scope?: string): Buffer {
  const known = [...new Set(secrets.filter((s): s is string => !!s))].sort();
  const base = configured
    ? createHmac("sha256", "pancake-mcp cursor key").update(configured).digest()
    : known.length === 0
      ? randomBytes(32)
      : createHmac("sha256", "pancake-mcp cursor key").update(known.join("\u0000")).digest();
  return scope === undefined ? base : createHmac("sha256", base).update(`tenant\u0000${scope}`).digest();
}

function mac(tool: string, call: CursorCall, payload: string): Buffer {
  const bound = BOUND_ARGS.map((name) => (call[name] === undefined ? "" : String(call[name])));
  return createHmac("sha256", call[CURSOR_KEY] ?? key).update(`${tool}\u0000${bound.join("\u0000")}\u0000${payload}`).digest().subarray(0, 16);
}

export function encodeCursor(tool: string, call: CursorCall, state: Record<string, unknown>): string {
  const payload = Buffer.from(JSON.stringify({ t: tool, ...state })).toString("base64url");
  return `${payload}.${mac(tool, call, payload).toString("base64url")}`;
}

/**
 * The state of `call.cursor`, checked against the tool's own state schema (its limits included):
 * a cursor this server signed for this tool and these arguments, or an InputError.
 */
export function decodeCursor<S extends z.ZodType>(tool: string, call: CursorCall, schema: S): z.output<S> {
  const fail = (why: string) =>
    new InputError(
      "cursor",
      why,
      `Pass next_cursor from the previous result of ${tool} unchanged, with the same ${BOUND_ARGS.filter((n) => n in call).join(", ") || "arguments"}, or omit cursor to start over.`,
    );
  const [payload, signature, extra] = (call.cursor ?? "").split(".");
  const given = Buffer.from(signature ?? "", "base64url");
  const expected = payload ? mac(tool, call, payload) : undefined;
  if (extra !== undefined || !expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw fail(`not a cursor from ${tool} for these arguments (edited, cut, or from another call)`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"));
  } catch {
    throw fail(`not a cursor from ${tool}`);
  }
  if (typeof raw !== "object" || raw === null || (raw as { t?: unknown }).t !== tool) throw fail(`not a cursor from ${tool}`);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw fail(`a cursor of ${tool} that this version cannot resume`);
  return parsed.data;
}
