import type { Conversation } from "../../clients/schemas/messaging.js";
import { nameScore, withoutAddress } from "../../format/name-match.js";
import { normalizePhone } from "../../format/phone.js";
import { phonesOf } from "./conversation-lookup.js";

/**
 * Whether a conversation is with the customer the user named: by a phone number captured in it
 * (any common form), or by name, accents and case optional, whole words ("Lan" finds "Nguyễn
 * Thị Lan"; "chị Lan" too, the form of address dropped).
 */
export function customerMatcher(typed: string): (c: Conversation) => boolean {
  const phone = normalizePhone(typed);
  if (phone) return (c) => phonesOf(c.recent_phone_numbers).some((p) => normalizePhone(p) === phone);
  const forms = [typed, withoutAddress(typed)].filter((f): f is string => f !== undefined);
  return (c) => namesOf(c).some((name) => forms.some((form) => nameScore(name, form) > 0));
}

function namesOf(c: Conversation): string[] {
  const names = [c.customers?.[0]?.name, c.from?.name, (c as { page_customer?: { name?: unknown } }).page_customer?.name];
  return names.filter((n): n is string => typeof n === "string" && n !== "");
}
