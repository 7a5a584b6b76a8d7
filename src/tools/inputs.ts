import { z } from "zod";
import { FULL_DETAIL_ROWS } from "./define.js";

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

// Read by parseDateInput: YYYY-MM-DD, ISO 8601 (no offset = shop time zone) or Unix seconds.
export const dateInput = z.union([z.string().max(40), z.number().int()]).describe("Date");

export const sinceInput = dateInput.optional().describe("From date");
export const untilInput = dateInput.optional().describe("To date, inclusive");

/**
 * An id that is put into a URL path: plain characters only, so it cannot steer the path. `what`
 * is the listed description (short, maybe not a noun); errors name the parameter by its path.
 */
export const idInput = (what: string) =>
  z
    .union([z.string(), z.number().int()])
    .transform(String)
    .pipe(
      z
        .string()
        .min(1)
        .max(128)
        .regex(/^[A-Za-z0-9_.:-]+$/, "an id may hold only letters, digits and _ . : -")
        .refine((s) => s !== "." && s !== "..", "not a valid id"),
    )
    .describe(what);

export const pageIdInput = idInput("Page id (list_pages)");
export const shopIdInput = idInput("Default: only shop").optional();

export const limitInput = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).describe("Max rows");

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

/** For lists, where raw records come at most FULL_DETAIL_ROWS to a call. */
export const detailRowsInput = detailInput.describe(`full: raw records, max ${FULL_DETAIL_ROWS} rows`);
