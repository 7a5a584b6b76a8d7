import { createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { InputError } from "../clients/errors.js";
import { signingKey } from "../cursor-key.js";

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

function mac(tool: string, call: CursorCall, payload: string): Buffer {
  const bound = BOUND_ARGS.map((name) => (call[name] === undefined ? "" : String(call[name])));
  return createHmac("sha256", signingKey(call[CURSOR_KEY])).update(`${tool}\u0000${bound.join("\u0000")}\u0000${payload}`).digest().subarray(0, 16);
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
