import { PancakeError } from "../../clients/errors.js";
import type { Conversation } from "../../clients/schemas/messaging.js";
import type { PosCustomer } from "../../clients/schemas/pos.js";
import { id } from "../../format/compact.js";
import { nameScore, withoutAddress } from "../../text/name-match.js";
import { normalizePhone } from "../../format/phone.js";
import { sanitizeName } from "../../text/sanitize.js";
import type { ToolContext } from "../define.js";
import { conversationLink } from "./chat-profile.js";
import { customersByPhoneOrName } from "../pos/customer-ref.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { phonesOf } from "./conversation-lookup.js";

export interface CustomerMatch {
  test(c: Conversation): boolean;
  /** What the match went by, when it went by a POS record. */
  note?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a conversation is with the customer the user named: by name, accents and case
 * optional, whole words ("Lan" finds "Nguyễn Thị Lan"; "chị Lan" too, the form of address
 * dropped); by a phone captured in it (any common form); or as a POS customer, given by id or by
 * a phone on their record, by what that record carries: its phones, its `fb_id` (the chat's
 * page-scoped or platform id) and the inbox customer its `conversation_link` names. An id the
 * POS does not know is taken as the inbox's own customer id (a raw conversation record's customer_id).
 */
export async function customerMatcher(ctx: ToolContext, typed: string): Promise<CustomerMatch> {
  const phone = normalizePhone(typed);
  const uuid = UUID.test(typed) ? typed.toLowerCase() : undefined;
  if (!phone && !uuid) {
    const forms = [typed, withoutAddress(typed)].filter((f): f is string => f !== undefined);
    return { test: (c) => namesOf(c).some((name) => forms.some((form) => nameScore(name, form) > 0)) };
  }
  const { records, note } = await posRecords(ctx, typed, phone, uuid);
  const known = (values: (string | undefined)[]) => new Set(values.filter((v): v is string => v !== undefined));
  const phones = known([phone, ...records.flatMap((r) => (r.phone_numbers ?? []).map((p) => normalizePhone(p)))]);
  const chatIds = known(records.map((r) => id((r as Record<string, unknown>).fb_id)));
  const inboxIds = known([uuid, ...records.map((r) => conversationLink((r as Record<string, unknown>).conversation_link)?.customer?.toLowerCase())]);
  return {
    test: (c) =>
      phonesOf(c.recent_phone_numbers).some((p) => phones.has(normalizePhone(p) ?? p)) ||
      [c.customers?.[0]?.fb_id, c.from_psid, c.from?.id].some((x) => x != null && chatIds.has(String(x))) ||
      [c.customer_id, c.customers?.[0]?.id].some((x) => x != null && inboxIds.has(String(x).toLowerCase())),
    note,
  };
}

/** The POS customers a phone or id names (none without a POS key, or when the POS fails: said in the note). */
async function posRecords(ctx: ToolContext, typed: string, phone: string | undefined, uuid: string | undefined): Promise<{ records: PosCustomer[]; note?: string }> {
  if (Object.keys(ctx.config.posApiKeys).length === 0) return { records: [] };
  try {
    const shopId = await resolveShopId(ctx, undefined);
    const records = phone ? await customersByPhoneOrName(ctx.pos, shopId, phone) : (await ctx.pos.listCustomers(shopId, { customer_ids: uuid, page_size: 1 })).data;
    const named = records.map((r) => `${sanitizeName(r.name) ?? "?"} (${r.id})`).join(", ");
    if (records.length) return { records, note: `matched by the phones and chat ids on POS customer ${named}, and by ${JSON.stringify(typed)} itself` };
    return { records, note: uuid ? `no POS customer has the id ${uuid}: matched as the inbox's customer id` : undefined };
  } catch (error) {
    if (!(error instanceof PancakeError)) throw error;
    return { records: [], note: `the POS could not be read (${error.message}): matched by ${JSON.stringify(typed)} alone` };
  }
}

function namesOf(c: Conversation): string[] {
  const names = [c.customers?.[0]?.name, c.from?.name, (c as { page_customer?: { name?: unknown } }).page_customer?.name];
  return names.filter((n): n is string => typeof n === "string" && n !== "");
}
