import { original } from "../../clients/call-signal.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { Conversation, PageCustomer } from "../../clients/schemas/messaging.js";
import { id } from "../../format/compact.js";
import { normalizePhone } from "../../format/phone.js";
import { joinKey } from "../../shop-index/join-keys.js";

/**
 * The pages' customers as joins to orders need them: a chat shows its customer's page-scoped id
 * (psid) and the phones caught in it, while a POS record made from a chat may carry the person's
 * platform-wide id (the page customer's `global_id`, "Customer's global Facebook ID"), or the
 * psid they have on another page, and the inbox may know a phone of theirs this chat never showed
 * (the page customer's `phone_numbers`). The page_customers list gives all three by psid.
 *
 * Read once a process and kept: each later call reads only the page customers updated since the
 * last walk ended (a global id never changes; phones are added), so a warm call costs one request
 * a page, none within the index's refresh interval of the last. A walk cut short by the call's
 * deadline goes on from the same place at the next call.
 */

interface Person {
  global?: string;
  phones: string[];
}

interface PageState {
  byPsid: Map<string, Person>;
  /** Every page customer updated up to this time (Unix s) is held; 0: none yet. */
  upTo: number;
  /** When the last walk ended (ms): a call within `freshMs` of it reads nothing. */
  walkedAt?: number;
  /** A walk under way: its end, and the next list page to read. */
  walk?: { until: number; page: number };
  /** The last walk begun: calls at once walk a page one after another. */
  turn?: Promise<boolean>;
}

/** The list's largest page (the OpenAPI's page_size maximum). */
const PAGE_SIZE = 100;

/** By the client a call's view is made from (call-signal.ts): every call of the process shares it. */
const held = new WeakMap<MessagingClient, Map<string, PageState>>();

export interface PagePeople {
  /** What the chat's page customer adds to the chat's own ids: the platform-wide id and its psids on other pages, the phones the inbox knows of that person on any page (national form). */
  of(c: Conversation): { socials: string[]; phones: string[] };
  /** Who the chat is with, the same on every page: the platform-wide id where known, else the psid (else the thread). */
  person(c: Conversation): string;
  /** The same as join keys (join-keys.ts). */
  keysOf(c: Conversation): string[];
  /** The page customers of every page were read (false: a page's walk was cut short or failed). */
  complete: boolean;
  /** Sentences on the pages not read whole. */
  notes: string[];
}

/** The state held of a page's customers, made on first use. */
function stateOf(client: MessagingClient, pageId: string): PageState {
  let pages = held.get(original(client));
  if (!pages) {
    pages = new Map();
    held.set(original(client), pages);
  }
  let state = pages.get(pageId);
  if (!state) {
    state = { byPsid: new Map(), upTo: 0 };
    pages.set(pageId, state);
  }
  return state;
}

/** Brings every page's customers up to date (as of `freshMs` ago), by `deadline` (ms), and answers what they add to a chat. */
export async function pagePeople(client: MessagingClient, pageIds: readonly string[], deadline: number, freshMs: number): Promise<PagePeople> {
  const notes: string[] = [];
  await Promise.all(
    pageIds.map(async (pageId) => {
      const state = stateOf(client, pageId);
      // Calls at once walk a page one after another, each from where the last got.
      const turn = (state.turn ?? Promise.resolve(true)).catch(() => false).then(() => (state.walkedAt !== undefined && Date.now() - state.walkedAt < freshMs) || walk(client, pageId, state, deadline));
      state.turn = turn;
      try {
        if (!(await turn)) notes.push(`page ${pageId}'s customers were read in part by the deadline: a chat linked to an order only by its customer's platform id may be missed; ask again`);
      } catch (error) {
        notes.push(`page ${pageId}'s customers could not be read (${error instanceof Error ? error.message : String(error)}): its chats are joined by their own ids and phones alone`);
      }
    }),
  );
  const states = held.get(original(client)) ?? new Map<string, PageState>();
  // A platform id's psids and phones on every page: an order may carry the psid of another page
  // than the chat's, or a phone the person left on another page (one person, one global id).
  const psidsOf = new Map<string, string[]>();
  const phonesOf = new Map<string, Set<string>>();
  for (const state of states.values()) {
    for (const [psid, person] of state.byPsid) {
      if (!person.global) continue;
      psidsOf.set(person.global, [...(psidsOf.get(person.global) ?? []), psid]);
      const phones = phonesOf.get(person.global) ?? new Set<string>();
      for (const phone of person.phones) phones.add(phone);
      phonesOf.set(person.global, phones);
    }
  }
  const psidOf = (c: Conversation) => id(c.customers?.[0]?.fb_id) ?? id(c.from_psid) ?? id(c.from?.id);
  const profileOf = (c: Conversation) => {
    const psid = psidOf(c);
    return psid === undefined ? undefined : states.get(String(c.page_id))?.byPsid.get(psid);
  };
  const of = (c: Conversation) => {
    const person = profileOf(c);
    const socials = person?.global ? [person.global, ...(psidsOf.get(person.global) ?? [])] : [];
    return { socials, phones: person?.global ? [...(phonesOf.get(person.global) ?? [])] : (person?.phones ?? []) };
  };
  return {
    complete: notes.length === 0,
    notes,
    of,
    person: (c) => profileOf(c)?.global ?? psidOf(c) ?? `chat ${c.id}`,
    keysOf(c) {
      const { socials, phones } = of(c);
      return [...socials.map((s) => joinKey("f", s)), ...phones.map((p) => joinKey("p", p))].filter((k): k is string => k !== undefined);
    },
  };
}

/** Reads the page customers updated since the state's last walk, by `deadline`; false when cut short. */
async function walk(client: MessagingClient, pageId: string, state: PageState, deadline: number): Promise<boolean> {
  state.walk ??= { until: Math.floor(Date.now() / 1000), page: 1 };
  const { until } = state.walk;
  for (;;) {
    if (Date.now() >= deadline) return false;
    const { customers } = await client.listPageCustomers(pageId, { since: state.upTo, until, page_number: state.walk.page, page_size: PAGE_SIZE, order_by: "updated_at" });
    for (const c of customers) hold(state, c);
    if (customers.length < PAGE_SIZE) break;
    state.walk.page++;
  }
  state.upTo = until;
  state.walk = undefined;
  state.walkedAt = Date.now();
  return true;
}

function hold(state: PageState, c: PageCustomer): void {
  const psid = id(c.psid);
  if (psid === undefined) return;
  const global = id((c as { global_id?: unknown }).global_id);
  const phones = (c.phone_numbers ?? []).map((p) => normalizePhone(p)).filter((p): p is string => p !== undefined);
  state.byPsid.set(psid, { global, phones: [...new Set(phones)] });
}
