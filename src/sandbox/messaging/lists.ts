import { Grouping, listView, Ordering, perState, stretch, type View } from "../ordering.js";
import { parseIso, type Range } from "./time.js";
import type { ConversationRecord, MessagingState, PageCustomerRecord } from "./types.js";

/*
 * The inbox lists that grow with the shop (a page's conversations and customers), each kept in the
 * orders its routes serve (src/sandbox/ordering.ts), so a page reads the page and a range what it holds.
 */

type TimeField = "inserted_at" | "updated_at";
type Dated = { id: string; page_id: string } & Record<TimeField, string>;

/** Ties by id, in the order of the text (localeCompare, as the lists always sorted them); read backward, newest first. */
const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
const TEXT: Record<TimeField, (r: Dated) => string> = { inserted_at: (r) => r.inserted_at, updated_at: (r) => r.updated_at };

class InboxLists {
  private readonly orderings = new Map<string, Ordering<Dated>>();
  private readonly revision = () => this.state.revision ?? 0;
  readonly conversationById: Grouping<ConversationRecord, string>;
  /** The comment and rating threads of a post (its counts). */
  readonly threadsOfPost: Grouping<ConversationRecord, string>;
  /** A page's customer by `<page_id>/<psid>`. */
  readonly pageCustomer: Grouping<PageCustomerRecord, string>;

  constructor(private readonly state: MessagingState) {
    this.conversationById = new Grouping(() => state.conversations, this.revision, (c) => [c.id]);
    this.threadsOfPost = new Grouping(() => state.conversations, this.revision, (c) => (c.post_id && c.type !== "INBOX" ? [c.post_id] : []));
    this.pageCustomer = new Grouping(() => state.customers, this.revision, (c) => [`${c.page_id}/${c.psid}`]);
  }

  /** Sorts now what the first reads of a big shop would sort: each page's conversations and customers, records by id. */
  warm(pageIds: readonly string[]): void {
    for (const pageId of pageIds) {
      for (const field of ["updated_at", "inserted_at"] as const) {
        this.conversations(pageId, field);
        this.customers(pageId, field);
      }
    }
    this.conversationById.get("");
    this.threadsOfPost.get("");
    this.pageCustomer.get("");
  }

  /** A page's conversations newest first by `field`, from `range` when given. */
  conversations(pageId: string, field: TimeField, range?: Range): View<ConversationRecord> {
    return this.newest("conversations", () => this.state.conversations, pageId, field, range) as View<ConversationRecord>;
  }

  /** A page's customers newest first by `field`, from `range` when given. */
  customers(pageId: string, field: TimeField, range?: Range): View<PageCustomerRecord> {
    return this.newest("customers", () => this.state.customers, pageId, field, range) as View<PageCustomerRecord>;
  }

  /**
   * Records of a page newest first by a time field (ties by id, newest first too), from the
   * ordering by that time in ms where its text orders them alike, every record sorted otherwise.
   */
  private newest(kind: string, source: () => readonly Dated[], pageId: string, field: TimeField, range?: Range): View<Dated> {
    const key = `${kind} ${pageId} ${field}`;
    let ordering = this.orderings.get(key);
    if (!ordering) {
      const rank = (r: Dated) => (r.page_id === pageId ? parseIso(r[field]) : undefined);
      ordering = new Ordering({ source, revision: this.revision, rank, witness: (r) => (r.page_id === pageId ? r[field] : undefined), tie: byId });
      this.orderings.set(key, ordering);
    }
    ordering.fresh();
    if (!ordering.agrees(TEXT[field]) || (!range && ordering.dropped > 0)) {
      const text = TEXT[field];
      const inRange = (r: Dated) => !range || (parseIso(text(r)) >= range.from && parseIso(text(r)) <= range.to);
      const sorted = source().filter((r) => r.page_id === pageId && inRange(r));
      return listView(sorted.sort((a, b) => text(b).localeCompare(text(a)) || byId(b, a)));
    }
    const [from, to] = range ? ordering.between(range.from, range.to) : [0, ordering.length];
    return stretch(ordering, from, to, true);
  }
}

/** The lists of an inbox state, made on first use. */
export const inboxLists = perState((state: MessagingState) => new InboxLists(state));
