import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosCustomer } from "../../clients/schemas/pos.js";
import { sanitizeLine, sanitizeName } from "../../text/sanitize.js";
import type { Chat } from "../inbox/chat-profile.js";
import { type ChatCustomer, chatCustomers } from "../pos/chat-customers.js";
import type { Ref } from "../pos/shop-refs.js";
import type { addressInput } from "./order-body.js";
import type { z } from "zod";

// An order made for a chat (create_order conversation_id): the POS customer the chat belongs to,
// the receiver the chat captured, and the link the vendor's order records carry to their chat.

const label = (c: PosCustomer) => `${sanitizeName(c.name) ?? "?"} (id ${c.id})`;

/**
 * The one POS customer the chat surely belongs to (by its ids, or a phone no other customer
 * has), or none. A write does not guess: several sure matches are a question to the caller.
 */
export async function chatCustomer(pos: PosClient, shopId: string, chat: Chat): Promise<ChatCustomer | undefined> {
  const sure = (await chatCustomers(pos, shopId, chat)).matches.filter((m) => m.confident);
  if (sure.length > 1) {
    throw new InputError("customer_id", `the chat matches ${sure.length} POS customers: ${sure.map((m) => label(m.customer)).join("; ")}`, "Pass customer_id: the one this order is for.");
  }
  return sure[0];
}

interface Receiver {
  customer_name?: string | undefined;
  phone?: string | undefined;
  shipping_address?: z.output<typeof addressInput> | undefined;
}

/**
 * What the chat captured of the receiver, for what neither the call nor the customer's record
 * gave. The customer typed it (their display name, a saved address): sanitized, on one line,
 * before it is shown in the confirmation or written to the order.
 */
export function fromChat<F extends Receiver>(fields: F, chat: Chat | undefined): { fields: F; filled: string[] } {
  if (!chat) return { fields, filled: [] };
  const out = { ...fields };
  const filled: string[] = [];
  const name = sanitizeName(chat.name);
  if (out.customer_name === undefined && name) [out.customer_name, filled[filled.length]] = [name, "name"];
  if (out.phone === undefined && chat.phones[0]) [out.phone, filled[filled.length]] = [chat.phones[0], "phone"];
  const saved = chat.addresses[0];
  if (out.shipping_address === undefined && saved) {
    // With its place ids, the street alone; without, the whole text, placed by name (address-names.ts).
    const placed = saved.commune_id !== undefined;
    const address = sanitizeLine((placed ? saved.address : saved.full_address) ?? saved.address ?? saved.full_address) ?? "";
    out.shipping_address = { address, commune_id: saved.commune_id, district_id: saved.district_id, province_id: saved.province_id };
    filled.push("address");
  }
  return { fields: out, filled };
}

/**
 * The order's link to its chat, as the vendor's order records carry it: `conversation_id` and
 * `page_id`, with the order source the chat's page is an account of (when the call names none),
 * and the customer's page-scoped id (the order's customer.fb_id) when no POS customer is linked.
 */
export function chatLink(chat: Chat, body: Record<string, unknown>, sources: Ref[], sourceGiven: boolean): void {
  if (body.page_id !== undefined && body.page_id !== chat.pageId) {
    throw new InputError("source", `names page ${String(body.page_id)}, but the chat is on page ${chat.pageId}`, "Drop source: the chat's page is the order's.");
  }
  const account = sources.find((s) => s.id === chat.pageId && s.parent_id);
  if (!sourceGiven && account) body.order_sources = account.parent_id;
  body.page_id = chat.pageId;
  body.conversation_id = chat.conversationId;
  if (!body.customer) body.customer = { fb_id: chat.psid, name: body.bill_full_name, page_id: chat.pageId };
}
