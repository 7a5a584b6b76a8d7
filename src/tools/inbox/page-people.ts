import { randomUUID } from "node:crypto";
import { original } from "../../clients/call-signal.js";
import type { MessagingClient } from "../../clients/messaging.js";
import type { Conversation, PageCustomer } from "../../clients/schemas/messaging.js";
import { id } from "../../format/compact.js";
import { normalizePhone } from "../../format/phone.js";
import { joinKey } from "../../shop-index/join-keys.js";
import { ownPeopleDatabase, type PagePerson, PeopleTable } from "../../shop-index/people-table.js";
import type { ShopIndex } from "../../shop-index/service.js";
import { readBy, type ToolContext } from "../define.js";

/**
 * The pages' customers as joins to orders need them: a chat shows its customer's page-scoped id
 * (psid) and the phones caught in it, while a POS record made from a chat may carry the person's
 * platform-wide id (the page customer's `global_id`, "Customer's global Facebook ID"), or the
 * psid they have on another page, and the inbox may know a phone of theirs this chat never showed
 * (the page customer's `phone_numbers`). The page_customers list gives all three by psid.
 *
 * Kept in the shop index's database (people-table.ts; a database of the process's own with the
 * index off): each call reads only the page customers updated since the last walk ended (a global
 * id never changes; phones are added), so a warm call costs one request a page, none within the
 * index's refresh interval of the last, and a restarted server goes on from where the last got. A
 * walk outlasting the call's deadline goes on by itself, as the index's reads do.
 */

/** A page's walks in this process: calls at once walk a page one after another. */
interface Walks {
  /** When the last walk ended (ms): a call within `freshMs` of it reads nothing. */
  walkedAt?: number;
  /** The last walk begun. */
  turn?: Promise<void>;
  /** The calls waiting for it, told of each list page read. */
  waiting: Set<Told>;
}

/** A call's progress: how many of a page's customers were read. */
type Told = (read: number, message: string) => void;

/** The list's largest page (the OpenAPI's page_size maximum). */
const PAGE_SIZE = 100;

/** By table (a page and the credential that reads it) and, with the index off, by client. */
const walks = new Map<string, Walks>();
const ownTables = new WeakMap<MessagingClient, Map<string, PeopleTable>>();

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

/** A page's table: in the shop index, or with the index off in a database of the process's own, one set a client. */
function tableOf(client: MessagingClient, index: ShopIndex | undefined, pageId: string): PeopleTable {
  if (index) return index.people(pageId);
  let tables = ownTables.get(original(client));
  if (!tables) {
    tables = new Map();
    ownTables.set(original(client), tables);
  }
  let table = tables.get(pageId);
  if (!table) {
    table = new PeopleTable(ownPeopleDatabase(), `${pageId}:${randomUUID()}`);
    tables.set(pageId, table);
  }
  return table;
}

/** Every active page's customers for a call's join, by its deadline, the walk's pages told to it as progress. */
export function callPeople(ctx: ToolContext): Promise<PagePeople> {
  const told: Told = (read, message) => void ctx.progress(read, undefined, message).catch(() => {});
  const people = ctx.messaging.activePageIds().then((pageIds) => pagePeople(ctx.messaging, ctx.index, pageIds, readBy(ctx), (ctx.config.index?.refreshSeconds ?? 0) * 1000, told));
  people.catch(() => undefined);
  return people;
}

/** Brings every page's customers up to date (as of `freshMs` ago), by `deadline` (ms), and answers what they add to a chat. */
export async function pagePeople(
  client: MessagingClient,
  index: ShopIndex | undefined,
  pageIds: readonly string[],
  deadline: number,
  freshMs: number,
  told?: Told,
): Promise<PagePeople> {
  const notes: string[] = [];
  const tables = new Map(pageIds.map((pageId) => [pageId, tableOf(client, index, pageId)]));
  await Promise.all(
    [...tables].map(async ([pageId, table]) => {
      const state = walks.get(table.ix) ?? { waiting: new Set<Told>() };
      walks.set(table.ix, state);
      if (told) state.waiting.add(told);
      // Calls at once walk a page one after another, each from where the last got. A walk goes on
      // past the call that began it (on the shared client: a cancel does not stop it), so the
      // next call finds it further on or done; a call waits for it until its own deadline.
      const turn = (state.turn ?? Promise.resolve()).catch(() => {}).then(async () => {
        if (state.walkedAt !== undefined && Date.now() - state.walkedAt < freshMs) return;
        await walk(original(client), pageId, table, (read) => {
          for (const call of state.waiting) call(read, `customers of page ${pageId} read: ${read}`);
        });
        state.walkedAt = Date.now();
      });
      state.turn = turn;
      // A walk's failure is told to the calls that wait for it, not left unhandled when none does.
      turn.catch(() => {});
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
      });
      try {
        if ((await Promise.race([turn.then(() => true), late])) === false) {
          notes.push(`page ${pageId}'s customers were read in part by the deadline (the read goes on): a chat linked to an order only by its customer's platform id may be missed; ask again`);
        }
      } catch (error) {
        notes.push(`page ${pageId}'s customers could not be read (${error instanceof Error ? error.message : String(error)}): its chats are joined by their own ids and phones alone`);
      } finally {
        clearTimeout(timer);
        if (told) state.waiting.delete(told);
      }
    }),
  );
  const every = [...tables.values()];
  // A platform id's psids and phones on every page: an order may carry the psid of another page
  // than the chat's, or a phone the person left on another page (one person, one global id).
  const sameGlobal = new Map<string, PagePerson[]>();
  const psidOf = (c: Conversation) => id(c.customers?.[0]?.fb_id) ?? id(c.from_psid) ?? id(c.from?.id);
  const profileOf = (c: Conversation) => {
    const psid = psidOf(c);
    return psid === undefined ? undefined : tables.get(String(c.page_id))?.person(psid);
  };
  const of = (c: Conversation) => {
    const person = profileOf(c);
    if (!person?.global) return { socials: [], phones: person?.phones ?? [] };
    let same = sameGlobal.get(person.global);
    if (!same) {
      same = tables.get(String(c.page_id))!.sameGlobal(person.global, every);
      sameGlobal.set(person.global, same);
    }
    return { socials: [person.global, ...same.map((p) => p.psid)], phones: [...new Set(same.flatMap((p) => p.phones))] };
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

/** Reads the page customers updated since the table's last walk, keeping each list page as it comes; `read`: how many so far. */
async function walk(client: MessagingClient, pageId: string, table: PeopleTable, read: (count: number) => void): Promise<void> {
  const progress = table.progress();
  const at = progress.walk ?? { until: Math.floor(Date.now() / 1000), page: 1 };
  for (let count = 0; ; ) {
    const { customers } = await client.listPageCustomers(pageId, { since: progress.upTo, until: at.until, page_number: at.page, page_size: PAGE_SIZE, order_by: "updated_at" });
    const people = customers.flatMap((c) => personOf(c) ?? []);
    count += customers.length;
    read(count);
    if (customers.length < PAGE_SIZE) {
      table.save(people, { upTo: at.until });
      return;
    }
    table.save(people, { upTo: progress.upTo, walk: { until: at.until, page: at.page + 1 } });
    at.page++;
  }
}

function personOf(c: PageCustomer): PagePerson | undefined {
  const psid = id(c.psid);
  if (psid === undefined) return undefined;
  const global = id((c as { global_id?: unknown }).global_id);
  const phones = (c.phone_numbers ?? []).map((p) => normalizePhone(p)).filter((p): p is string => p !== undefined);
  return { psid, global, phones: [...new Set(phones)] };
}
