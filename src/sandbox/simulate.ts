import type { ConversationRecord, MessageRecord, MessagingState, PageCustomerRecord, StaffUser } from "./messaging/index.js";
import { assignUser, customerSender, staffSender } from "./messaging/messages.js";
import { assignConversation, type MessageDraft, markSeen, openConversation, postMessage, tagConversation } from "./messaging/writes.js";
import { iso } from "./messaging/time.js";
import { drawName } from "./people.js";
import { createOrder, findOrder, updateOrder } from "./pos/order-writes.js";
import type { OrderRecord, PosState } from "./pos/index.js";
import { Random } from "./random.js";

/** Psids of customers who write in after the seed: above those of the people and their copies (below 6.2e15). */
const NEW_PSID_BASE = 6_500_000_000_000_000;

/**
 * Changes made elsewhere than through the API (a customer writing in, staff in the web app), for
 * tests of what follows them: each goes through the same code as the API's writes, so it moves the
 * same fields (updated_at, snippets, histories, stock) and sends the same webhooks.
 */
export class Simulation {
  constructor(
    private readonly inbox: MessagingState,
    private readonly pos: PosState,
    /** The messaging sandbox clock (UTC ms). */
    private readonly clock: () => number,
  ) {}

  /** The customer writes in the conversation (a new comment under theirs, for a comment thread). */
  customerMessage(conversationId: string, text: string): MessageRecord {
    const c = this.conversation(conversationId);
    return postMessage(this.inbox, c, this.draft(c, customerSender(c), text));
  }

  /** A staff member (by default the page's first active one) answers from the web app. */
  staffReply(conversationId: string, text: string, staffId?: string): MessageRecord {
    const c = this.conversation(conversationId);
    const page = this.inbox.pages.find((p) => p.id === c.page_id)!;
    return postMessage(this.inbox, c, this.draft(c, staffSender(page, this.staff(c.page_id, staffId)), text));
  }

  /**
   * A customer new to the page writes in: a page customer and an inbox thread, or a comment on the
   * page's newest post, with their first message.
   */
  newConversation(pageId: string, options: { type?: "INBOX" | "COMMENT"; text?: string } = {}): ConversationRecord {
    const page = this.inbox.pages.find((p) => p.id === pageId);
    if (!page) throw new Error(`no page ${pageId}`);
    const n = ++this.inbox.sequence;
    const rng = new Random(0x73696d75 + n);
    const psid = String(NEW_PSID_BASE + n);
    const at = this.clock();
    const gender = rng.chance(0.7) ? "female" : "male";
    const customer: PageCustomerRecord = {
      id: rng.uuid(),
      customer_id: rng.uuid(),
      page_id: page.id,
      psid,
      name: drawName(rng, gender),
      gender,
      birthday: null,
      lives_in: "",
      phone_numbers: [],
      inserted_at: iso(at),
      updated_at: iso(at),
      can_inbox: true,
      thread_id: null,
      global_id: null,
    };
    this.inbox.customers.push(customer);
    const type = options.type ?? "INBOX";
    const post = type === "COMMENT" ? this.inbox.posts.filter((p) => p.page_id === page.id).sort((a, b) => b.inserted_at.localeCompare(a.inserted_at))[0] : undefined;
    if (type === "COMMENT" && !post) throw new Error(`page ${pageId} has no post to comment on`);
    const id = post ? `${post.id.split("_")[1]}_${900_000_000_000 + n}` : `${page.id}_${psid}`;
    const c = openConversation(this.inbox, { id, page, customer, type, at, postId: post?.id ?? null });
    // A comment thread's id is its first comment's.
    postMessage(this.inbox, c, { id: post ? id : `m_sb${++this.inbox.sequence}`, from: customerSender(c), text: options.text ?? "Shop ơi còn hàng không ạ?", at });
    return c;
  }

  /** Staff open the conversation in the web app (it is read), or mark it unread. */
  markRead(conversationId: string, read = true): void {
    markSeen(this.inbox, this.conversation(conversationId), read);
  }

  /** A staff member tags or untags the conversation in the web app. */
  tag(conversationId: string, tagId: number, action: "add" | "remove", staffId?: string): void {
    const c = this.conversation(conversationId);
    const tag = this.inbox.tags[c.page_id]?.find((t) => t.id === tagId);
    if (!tag) throw new Error(`no tag ${tagId} on page ${c.page_id}`);
    const staff = this.staff(c.page_id, staffId);
    tagConversation(this.inbox, c, tag, action, { id: staff.id, name: staff.name }, this.clock());
  }

  /** The conversation is assigned to these staff members (none: unassigned). */
  assign(conversationId: string, staffIds: string[]): void {
    const c = this.conversation(conversationId);
    assignConversation(this.inbox, c, staffIds.map((id) => assignUser(this.staff(c.page_id, id))), this.clock());
  }

  /** Staff move the order to `status` (cancel puts units back, shipping takes them off the shelf). */
  setOrderStatus(orderId: number | string, status: number): OrderRecord {
    return updateOrder(this.pos, findOrder(this.pos, String(orderId)), { status });
  }

  /** Staff delete the order: the POS moves it to status 7, "deleted recently". */
  deleteOrder(orderId: number | string): OrderRecord {
    return this.setOrderStatus(orderId, 7);
  }

  /**
   * Staff create an order in the web app: the create payload of POST /orders, by default one unit
   * of the first variation for the first customer through the first page; `body` overrides fields.
   */
  newOrder(body: Record<string, unknown> = {}): OrderRecord {
    const customer = this.pos.customers[0]!;
    const page = this.pos.shop.pages[0];
    return createOrder(this.pos, {
      bill_full_name: customer.name,
      bill_phone_number: customer.phone_numbers[0] ?? "",
      customer: { id: customer.id },
      ...(page ? { page_id: page.id } : {}),
      items: [{ variation_id: this.pos.variations[0]!.id, quantity: 1 }],
      ...body,
    });
  }

  private conversation(id: string): ConversationRecord {
    const c = this.inbox.conversations.find((x) => x.id === id);
    if (!c) throw new Error(`no conversation ${id}`);
    return c;
  }

  /** An active staff member of the page: `id`, or the first. */
  private staff(pageId: string, id?: string): StaffUser {
    const staff = this.inbox.staff.find(
      (s) => (id === undefined || s.id === id) && s.page_ids.includes(pageId) && !s.disabled_page_ids.includes(pageId),
    );
    if (!staff) throw new Error(`no active staff member ${id ?? ""} on page ${pageId}`);
    return staff;
  }

  /** The next message of the thread: an inbox message, or a comment under the thread's first. */
  private draft(c: ConversationRecord, from: MessageDraft["from"], text: string): MessageDraft {
    const at = this.clock();
    if (c.type === "INBOX") return { id: `m_sb${++this.inbox.sequence}`, from, text, at };
    const root = this.inbox.messages[c.id]?.[0];
    return { id: `${c.id.split("_")[0]}_${900_000_000_000 + ++this.inbox.sequence}`, from, text, at, ...(root ? { parentId: root.parent_id ?? root.id } : {}) };
  }
}
