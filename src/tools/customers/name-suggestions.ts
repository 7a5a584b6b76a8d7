import type { CustomerListParams, PosClient } from "../../clients/pos.js";
import type { PosCustomer } from "../../clients/schemas/pos.js";
import { fold } from "../../text/fold.js";
import { type Nearness, nearness, nearnessText, withoutAddress } from "../../text/name-match.js";
import { sanitizeName } from "../../text/sanitize.js";

/** Searches one no-match answer may make for candidates, each one page. */
const CANDIDATE_QUERIES = 3;
const CANDIDATE_PAGE = 100;
const SUGGESTIONS = 5;

/**
 * What the POS is asked for candidates when a name finds nobody. Its search finds the text inside
 * a name as typed, so "Lan Nguyễn" (word order) or "Nguyễn Thị Lam" (a letter off) finds nobody,
 * while each word typed right finds its bearers: the longest words (the surest to be rare), and
 * for one long word its two halves (one wrong letter leaves one of them whole).
 */
export function candidateSearches(typed: string): string[] {
  const words = (withoutAddress(typed) ?? typed).split(/[^\p{L}\p{N}]+/u).filter((w) => fold(w).length >= 2);
  const [only] = words;
  const halves = words.length === 1 && only!.length >= 6 ? [only!.slice(0, Math.ceil(only!.length / 2)), only!.slice(Math.floor(only!.length / 2))] : [];
  const unique = [...new Map([...words, ...halves].map((w) => [fold(w), w])).values()];
  return unique.sort((a, b) => b.length - a.length).slice(0, CANDIDATE_QUERIES);
}

export interface Suggestion {
  id: string;
  customer_name?: string | undefined;
  phone?: string | undefined;
  why: string;
}

/**
 * Customers whose names are near what was typed, nearest first: real records the POS served for
 * a broader search, each saying how it differs. Never matches: the caller shows them apart.
 */
export async function nameSuggestions(pos: PosClient, shopId: string, query: CustomerListParams, typed: string): Promise<Suggestion[]> {
  const pages = await Promise.all(candidateSearches(typed).map((search) => pos.listCustomers(shopId, { ...query, search, page_number: 1, page_size: CANDIDATE_PAGE })));
  const candidates = new Map(pages.flatMap((p) => p.data).map((c) => [String(c.id), c]));
  const wanted = withoutAddress(typed) ?? typed;
  const near = [...candidates.values()].flatMap((c) => {
    const n = c.name ? nearness(c.name, wanted) : undefined;
    return n ? [{ c, n }] : [];
  });
  // Fewest letters off first, then words in the typed order, then fewest words not typed.
  const rank = ({ n }: { n: Nearness }) => n.letters * 4 + Number(n.reordered) * 2 + n.untyped;
  return near
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, SUGGESTIONS)
    .map(({ c, n }: { c: PosCustomer; n: Nearness }) => ({
      id: String(c.id),
      customer_name: sanitizeName(c.name),
      phone: sanitizeName(c.phone_numbers?.[0]),
      why: nearnessText(n),
    }));
}
