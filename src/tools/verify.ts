import { z } from "zod";
import { failureText } from "../clients/errors.js";
import { normalizePhone } from "../format/phone.js";
import { sanitizeDeep } from "../text/sanitize.js";

/**
 * Writes read back. The live POS answers success to writes it did not fully apply: PUT
 * /orders/{id} with an api key ignores or recomputes the fees (reported by a public POS client
 * that replays production traces, /work/shared/reference/README.md). So every update reads the
 * record back once the upstream accepted it and compares what it sent: a field the record does
 * not hold is named in `not_applied`, with what the record holds and what to do instead, and no
 * result reports a value it did not see applied.
 */

/** What an update sent for one field, and what the record read back holds there. */
export interface SentField {
  /** As the caller named it ("shipping_fee", "prices[0].price"). */
  field: string;
  sent: unknown;
  held: unknown;
  /** What to do instead when it did not take. */
  fix?: string;
}

export const notAppliedSchema = z
  .array(z.object({ field: z.string(), sent: z.unknown(), holds: z.unknown().optional(), fix: z.string() }))
  .describe("Sent but not held by the record read back");

/** The result fields every verified write adds. */
export const verifiedShape = {
  not_applied: notAppliedSchema.optional(),
  unverified: z.string().optional().describe("Why the write was not read back"),
};

const FIX = "The POS did not take it: change it in the POS app.";

const empty = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** A scalar as compared: numbers and numeric text alike, text trimmed. */
function scalar(v: unknown): string {
  if (empty(v)) return "";
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const text = String(v).trim();
  return text !== "" && Number.isFinite(Number(text)) ? String(Number(text)) : text;
}

/**
 * Whether the record holds what was sent: scalars alike (an id as number or text), a list with
 * the same entries in any order, an object holding every key sent (the record has more).
 */
export function holds(sent: unknown, held: unknown): boolean {
  if (Array.isArray(sent)) {
    if (!Array.isArray(held) || held.length !== sent.length) return sent.length === 0 && empty(held);
    const left = [...held];
    return sent.every((s) => {
      const at = left.findIndex((h) => holds(s, h));
      return at >= 0 && left.splice(at, 1).length === 1;
    });
  }
  if (sent !== null && typeof sent === "object") {
    const record = held !== null && typeof held === "object" ? (held as Record<string, unknown>) : {};
    return Object.entries(sent).every(([key, value]) => value === undefined || holds(value, record[key]));
  }
  return scalar(sent) === scalar(held);
}

/** A phone, or a list of them, in the national form: the POS may keep "+84 912…" for "0912…". */
export const phones = (v: unknown): unknown => (Array.isArray(v) ? v.map(phones) : typeof v === "string" ? (normalizePhone(v) ?? v) : v);

/** Address fields a write can be checked on (full_address is the POS's own rendering). */
const ADDRESS_KEYS = ["address", "commune_id", "district_id", "province_id", "full_name", "phone_number"];

/** An address (an order's, a customer's) as compared: the fields a write can be checked on, its phone as `phones` writes it. */
export function addressFields(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  const a = v as Record<string, unknown>;
  return Object.fromEntries(ADDRESS_KEYS.flatMap((k) => (a[k] === undefined ? [] : [[k, k === "phone_number" ? phones(a[k]) : a[k]]])));
}

/** A time as the instant it names: Unix seconds or date text alike. */
export const instant = (v: unknown) => (typeof v === "number" ? v * 1000 : typeof v === "string" ? Date.parse(v) : v);

/**
 * Each field sent beside the record's own, compared through `as` where the two may write one
 * value differently (a time as an instant, a status code by its name).
 */
export function fieldChecks(sent: Record<string, unknown>, held: Record<string, unknown>, as: Record<string, (v: unknown) => unknown> = {}): SentField[] {
  return Object.entries(sent).map(([field, value]) => {
    const same = as[field] ?? ((v: unknown) => v);
    return { field, sent: same(value), held: same(held[field]) };
  });
}

/** The fields a record read back does not hold as sent; undefined when every one took. */
export function notApplied(fields: readonly SentField[]) {
  const missed = fields.filter((f) => f.sent !== undefined && !holds(f.sent, f.held));
  return missed.length === 0 ? undefined : missed.map((f) => ({ field: f.field, sent: f.sent, holds: sanitizeDeep(f.held ?? undefined), fix: f.fix ?? FIX }));
}

type ReadBack<T> = { record: T; unverified?: undefined } | { record?: undefined; unverified: string };

/**
 * The record read back after a write the upstream accepted. A failed read is an answer, not an
 * error: the write happened, and calling again would repeat it.
 */
export async function readBack<T>(what: string, read: () => Promise<T>): Promise<ReadBack<T>> {
  try {
    return { record: await read() };
  } catch (error) {
    return { unverified: `The POS accepted the ${what}, but reading it back failed, so nothing in this result says what it now holds (${failureText(error).replace(/\n/g, " ")}). Read it again before telling the user it took; do not repeat the write.` };
  }
}
