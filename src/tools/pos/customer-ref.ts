import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";
import type { PosCustomer } from "../../clients/schemas/pos.js";
import { bestMatches } from "../../text/name-match.js";
import { normalizePhone } from "../../format/phone.js";
import { sanitizeName } from "../../text/sanitize.js";
import { searchText } from "./phone.js";

// Customers as people name them. A filter given a name where an id belongs ("Ngô Kim Hà" as
// customer_id) matches nothing upstream and reads as "no orders", "owes nothing": so every
// customer parameter takes an id, a phone (any form) or a name, and resolves it before use.

const ID = /^[A-Za-z0-9_.:-]{1,128}$/;
/** Customers read for one name: more than a handful sharing one is a question to the caller. */
const CANDIDATES = 30;

const label = (c: PosCustomer) => `${sanitizeName(c.name) ?? "?"} (${(c.phone_numbers ?? []).slice(0, 1).join("") || "no phone"}, id ${c.id})`;

/** The customers a phone (any form) or name designates: by phone exactly, else the best name matches. */
export async function customersByPhoneOrName(pos: PosClient, shopId: string, text: string): Promise<PosCustomer[]> {
  const found = (await pos.listCustomers(shopId, { search: searchText(text), page_size: CANDIDATES })).data;
  const phone = normalizePhone(text);
  if (phone) return found.filter((c) => (c.phone_numbers ?? []).some((p) => normalizePhone(p) === phone));
  return bestMatches(found, text, (c) => c.name ?? undefined);
}

function oneOf(field: string, text: string, found: PosCustomer[]): PosCustomer {
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    throw new InputError(field, `${JSON.stringify(text)} matches ${found.length} customers: ${found.slice(0, 8).map(label).join("; ")}`, "Pass the customer's id or phone.");
  }
  throw new InputError(field, `no customer has the id, phone or name ${JSON.stringify(text)}`, "Find the customer with search_customers.");
}

/** Customers given by id, phone or name: ids checked in one read, the rest searched one by one. */
async function resolve(pos: PosClient, shopId: string, refs: { field: string; text: string }[]): Promise<PosCustomer[]> {
  const idLike = [...new Set(refs.map((r) => r.text).filter((t) => ID.test(t)))];
  const known = new Map<string, PosCustomer>();
  for (let i = 0; i < idLike.length; i += 100) {
    const chunk = idLike.slice(i, i + 100);
    const page = await pos.listCustomers(shopId, { customer_ids: chunk.join(","), page_size: chunk.length });
    for (const c of page.data) known.set(String(c.id), c);
  }
  const found: PosCustomer[] = [];
  for (const { field, text } of refs) found.push(known.get(text) ?? oneOf(field, text, await customersByPhoneOrName(pos, shopId, text)));
  return found;
}

/** The ids of customers given by id, phone or name, in order; one naming no customer, or several, is an error. */
export async function customerIds(pos: PosClient, shopId: string, field: string, values: readonly string[]): Promise<string[]> {
  const found = await resolve(pos, shopId, values.map((v, i) => ({ field: `${field}[${i}]`, text: v.trim() })));
  return found.map((c) => String(c.id));
}

/** One customer's record, given by id, phone or name (the record the lookup read: no second call). */
export async function customerRecord(pos: PosClient, shopId: string, field: string, value: string): Promise<PosCustomer> {
  return (await resolve(pos, shopId, [{ field, text: value.trim() }]))[0]!;
}

/** The id of one customer given by id, phone or name. */
export async function customerId(pos: PosClient, shopId: string, field: string, value: string): Promise<string> {
  return String((await customerRecord(pos, shopId, field, value)).id);
}
