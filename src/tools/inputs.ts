import { z } from "zod";

/** Shared parameter vocabulary: described once here, reused by every tool. */

/** Some clients double-encode nested objects and arrays as JSON strings; accept both. */
export function jsonish<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== "string") return value;
    const text = value.trim();
    if (!(text.startsWith("{") || text.startsWith("["))) return value;
    try {
      return JSON.parse(text);
    } catch {
      return value;
    }
  }, schema);
}

// Read by parseDateInput: YYYY-MM-DD, YYYY-MM, today, yesterday, this/last week|month|year, last N days|weeks, N days ago, now, a time of today
// (12:00, noon), ISO 8601 (no offset = shop time zone) or Unix seconds.
export const dateInput = z.union([z.string().max(40), z.number().int()]).describe("Date");

export const sinceInput = dateInput.optional().describe("From date");
export const untilInput = dateInput.optional().describe("To date, inclusive");

/**
 * An id that is put into a URL path: plain characters only, so it cannot steer the path. `what`
 * is the listed description (short, maybe not a noun); errors name the parameter by its path.
 */
export const idInput = (what?: string) => {
  const id = z
    .union([z.string(), z.number().int()])
    .transform(String)
    .pipe(
      z
        .string()
        .min(1)
        .max(128)
        .regex(/^[A-Za-z0-9_.:-]+$/, "an id may hold only letters, digits and _ . : -")
        .refine((s) => s !== "." && s !== "..", "not a valid id"),
    );
  return what === undefined ? id : id.describe(what);
};

/**
 * A page by id or by name ("Mây Kids"). It never reaches a URL as typed: runTool resolves it to
 * an id of the page list first (tools/pages/page-refs.ts).
 */
export const pageRef = z.union([z.string(), z.number().int()]).transform(String).pipe(z.string().trim().min(1).max(120));

export const pageIdInput = pageRef.describe("Page id or name");
/** Resolved like pageIdInput when given. */
export const optionalPageIdInput = pageIdInput.optional();
// Undescribed: optional, and a call without it on a several-shop key is refused naming the shops
// (pos/resolve-shop.ts). Its description cost 287 tokens of tools/list over some 40 POS tools.
export const shopIdInput = idInput().optional();

export const limitInput = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe("Max rows");

/** A list whose answer also sums every match: limit 0 asks for the sums without rows. */
export const totalsLimitInput = (max: number, fallback: number) =>
  z.number().int().min(0).max(max).default(fallback).describe("Max rows; 0: totals only");

// Cursors carry the first call's whole query (id lists included), so they can be long.
export const cursorInput = z
  .string()
  .max(20_000)
  .optional()
  .describe("Previous next_cursor");

export const detailInput = z
  .enum(["compact", "full"])
  .default("compact")
  .describe("full: raw record");

/**
 * Rows per call with `detail: "full"`. A raw record runs to kilobytes (an order is about 5 KB), so
 * a page of 30 or 100 would outgrow what clients accept from one tool (Claude Code stops at 25k
 * tokens); the rest stays one next_cursor away.
 */
export const FULL_DETAIL_ROWS = 10;

/** `detail` of a list tool, whose `limit` counts rows: full records come at most FULL_DETAIL_ROWS a call. */
export const detailRowsInput = detailInput.describe(`full: raw records, max ${FULL_DETAIL_ROWS} rows`);

/** The input a list tool runs with: `limit` lowered for full records (only tools that opt in with detailRowsInput). */
export function capFullRows(schema: z.ZodObject<z.ZodRawShape>, input: unknown): unknown {
  if (schema.shape.detail !== detailRowsInput) return input;
  const { detail, limit } = input as { detail?: unknown; limit?: unknown };
  return detail === "full" && typeof limit === "number" && limit > FULL_DETAIL_ROWS ? { ...(input as object), limit: FULL_DETAIL_ROWS } : input;
}
