import type { z } from "zod";
import { InputError } from "../clients/errors.js";

/**
 * Cursors are opaque to callers: base64url JSON naming the tool and its upstream position, so a
 * tool can switch list variants or walk time windows without the caller knowing.
 */
export function encodeCursor(tool: string, state: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ t: tool, ...state })).toString("base64url");
}

export function decodeCursor<S extends z.ZodType>(tool: string, cursor: string, schema: S): z.output<S> {
  const fail = () =>
    new InputError("cursor", `not a cursor from ${tool}`, "Pass next_cursor from the previous result of the same tool unchanged, or omit cursor to start over.");
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw fail();
  }
  if (typeof raw !== "object" || raw === null || (raw as { t?: unknown }).t !== tool) throw fail();
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw fail();
  return parsed.data;
}
