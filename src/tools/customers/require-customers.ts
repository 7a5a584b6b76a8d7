import { InputError } from "../../clients/errors.js";
import type { PosClient } from "../../clients/pos.js";

/**
 * Checks that every id names a customer of the shop before a write that targets them: a promotion
 * given to an id that is not a customer reaches nobody, and says nothing.
 */
export async function requireCustomers(pos: PosClient, shopId: string, field: string, ids: readonly string[]): Promise<void> {
  const wanted = [...new Set(ids)];
  const found = new Set<string>();
  for (let i = 0; i < wanted.length; i += 100) {
    const chunk = wanted.slice(i, i + 100);
    const page = await pos.listCustomers(shopId, { customer_ids: chunk.join(","), page_size: chunk.length });
    for (const c of page.data) found.add(String(c.id));
  }
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) {
    throw new InputError(field, `not customers of this shop: ${missing.slice(0, 10).join(", ")}`, "Find the ids with search_customers (name or phone).");
  }
}
