import type { PosClient } from "../../clients/pos.js";
import { TRANSACTION_STATUSES, statusName } from "../../clients/pos-codes.js";
import type { PosTransaction } from "../../clients/schemas/pos.js";
import { recordDate, toDateInZone, toIsoInZone } from "../../format/time.js";
import { MAX_PAGE_SIZE } from "../pos/paging.js";
import { fieldChecks, notApplied, type SentField } from "../verify.js";
import type { AdCostItem } from "./ad-cost-items.js";

/**
 * The cash-book entry an ad cost makes, read back: the POS answers the write with {success}
 * alone, and keeps what it does not take (a date, a tag) silently, so the entry is found in the
 * cash book and compared with what was sent.
 */

/** The newest entries read to find it: the cash book lists newest first. */
const PAGE = { status: -1, page: 1, page_size: MAX_PAGE_SIZE };

/** Ids of the ad-cost entries on the cash book's first page before the write; undefined when unread. */
export async function adCostEntriesBefore(pos: PosClient, shopId: string): Promise<Set<string> | undefined> {
  try {
    const { data } = await pos.listTransactions(shopId, PAGE);
    return new Set(data.filter(isAdCost).map((t) => String(t.id)));
  } catch {
    // Not knowing them only makes the entry found after the write the newest one with its name.
    return undefined;
  }
}

const isAdCost = (t: PosTransaction) => t.advertising_cost_id !== undefined && t.advertising_cost_id !== null && t.advertising_cost_id !== "";

/** The entry of the ad cost just written: new since `before`, with its name (its amount breaks a tie). */
export async function findAdCostEntry(pos: PosClient, shopId: string, name: string, amount: number, before: Set<string> | undefined): Promise<PosTransaction> {
  const { data } = await pos.listTransactions(shopId, PAGE);
  const fresh = data.filter((t) => isAdCost(t) && !before?.has(String(t.id)) && String(t.name ?? "").trim() === name.trim());
  const found = fresh.find((t) => t.amount === amount) ?? fresh[0];
  if (!found) throw new Error(`its cash-book entry "${name}" is not among the ${MAX_PAGE_SIZE} newest entries`);
  return found;
}

/** A tag name as the POS tells names apart: spaces and case aside. */
const tagKey = (name: string) => name.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();

/** Tag names as sent: those given and the campaign, each name once. */
export function tagNames(tags: readonly string[] | undefined, campaign: string | undefined): string[] {
  const seen = new Set<string>();
  return [...(tags ?? []), ...(campaign === undefined ? [] : [campaign])].filter((tag) => {
    if (seen.has(tagKey(tag))) return false;
    seen.add(tagKey(tag));
    return true;
  });
}

export interface SentEntry {
  /** The input fields that dated and tagged it (cost_date or transaction.time_incurred; campaign or transaction.tags). */
  dateField: string;
  tagField: string;
  incurred: Date;
  status: number;
  tags: string[];
  note?: string | undefined;
  is_locked?: boolean | undefined;
}

/** What the entry read back does not hold of what was sent; undefined when all of it took. */
export function entryNotApplied(sent: SentEntry, held: PosTransaction, tz: string) {
  const heldAt = recordDate(held.time_incurred);
  const record = held as Record<string, unknown>;
  const heldNames = Array.isArray(record.tags) ? (record.tags as unknown[]).map(String) : undefined;
  const heldIds = Array.isArray(held.tag_ids) ? held.tag_ids : [];
  const checks: SentField[] = [
    {
      // The day is what the cash book files it under; a time the POS rounds is no matter.
      field: sent.dateField,
      sent: toDateInZone(sent.incurred, tz),
      held: heldAt && toDateInZone(heldAt, tz),
      fix: "The cash book dates it otherwise: change its date in the POS app.",
    },
    { field: "transaction.status", sent: statusName(TRANSACTION_STATUSES, sent.status), held: statusName(TRANSACTION_STATUSES, held.status) },
    ...fieldChecks({ "transaction.note": sent.note, "transaction.is_locked": sent.is_locked }, { "transaction.note": held.note, "transaction.is_locked": record.is_locked }),
  ];
  const missed = notApplied(checks) ?? [];
  // The entry keeps its tags by id, with no names to compare unless the POS sends them: one id per name.
  const kept = heldNames ? sent.tags.every((t) => heldNames.some((h) => tagKey(h) === tagKey(t))) : heldIds.length >= sent.tags.length;
  if (!kept) missed.push({ field: sent.tagField, sent: sent.tags, holds: heldNames ?? heldIds, fix: "The POS did not keep the tag: add it to the entry in the POS app." });
  return missed.length ? missed : undefined;
}

/** The entry's date and time as the result gives it (shop time), or what was sent when unread. */
export const entryTime = (held: PosTransaction | undefined, sent: Date, tz: string) => toIsoInZone(recordDate(held?.time_incurred) ?? sent, tz);

/**
 * How to tie a cost the POS can attribute to nothing more than a channel: what it offers is on
 * each item, when the cost is recorded (the API has no change of a recorded cost).
 */
export function tieNote(items: readonly AdCostItem[]): string | undefined {
  const loose = items.flatMap((it, i) => (it.source?.account || it.post_ids?.length || it.product ? [] : [i]));
  if (!loose.length) return undefined;
  const which = loose.length === items.length ? "Not" : `items ${loose.join(", ")}:`;
  return `${which} tied to a page, post or product. Tie a cost when recording it, per item: source {key, account: page}, post_ids, product (and marketer); a recorded cost is changed in the POS app.`;
}
