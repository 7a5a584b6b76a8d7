import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { ConversationRecord, MessageRecord, MessagingChange, MessagingState } from "./messaging/index.js";
import type { PosChange } from "./pos/state.js";

/** What the shop's POS webhook may send (the shop's `webhook_types`; the sandbox sends these three). */
export const POS_WEBHOOK_TYPES = ["orders", "customers", "variations_warehouses"] as const;
export type PosWebhookType = (typeof POS_WEBHOOK_TYPES)[number];

/** Where the sandbox posts its webhooks; a part left out is not sent. */
export interface WebhookSettings {
  /** The shop's webhook_url, webhook_headers and webhook_types (every type when left out). */
  pos?: { url: string; headers?: Record<string, string>; types?: readonly PosWebhookType[] };
  /** The URL the pages' messaging webhook posts to (messaging and conversation events). */
  messaging?: { url: string };
}

export interface WebhookDelivery {
  /** The POS webhook type (`orders`, `customers`, `variations_warehouses`) or the messaging `event_type`. */
  event: PosWebhookType | "messaging" | "conversation";
  url: string;
  /** The JSON body as sent. */
  body: string;
  /** The receiver's HTTP status, once it answered. */
  status?: number;
  /** Why the delivery failed (refused, reset, timed out, a bad URL). */
  error?: string;
}

/** Deliveries kept in `deliveries`, newest last: a long demo must not grow without bound. */
const KEEP_DELIVERIES = 5000;
/** A receiver that holds the request longer is given up on, as the live services do (they ask for 5 s). */
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * The webhooks of both simulated services: every change a write makes (state.onChange) becomes the
 * POST the live service would send, fire and forget. The write that caused it neither waits for
 * it nor fails with it; each delivery is recorded, and settled() waits for those under way.
 */
export class SandboxWebhooks {
  readonly deliveries: WebhookDelivery[] = [];
  private settings: WebhookSettings = {};
  private readonly pending = new Set<Promise<void>>();
  /** Each conversation's version, raised by every change to it whether a webhook is set or not. */
  private readonly versions = new Map<string, number>();

  constructor(
    private readonly messaging: MessagingState,
    /** The messaging sandbox clock (UTC ms): conversation events are stamped with it. */
    private readonly clock: () => number,
  ) {}

  set(settings: WebhookSettings): void {
    this.settings = structuredClone(settings);
  }

  /** Resolves once every delivery under way has its answer or error (deliveries started meanwhile too). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** A change to the POS: the record itself is the body (WebhookOrderResponse, WebhookCustomerResponse). */
  pos(change: PosChange): void {
    const target = this.settings.pos;
    if (!target || !(target.types ?? POS_WEBHOOK_TYPES).includes(change.type)) return;
    const body =
      change.type === "orders"
        ? change.order
        : change.type === "customers"
          ? change.customer
          : { data: { record: change.stock, success: true } };
    this.post(change.type, target.url, body, target.headers);
  }

  /** A change to the inbox: a new message is a `messaging` event, any change a `conversation` event. */
  inbox(change: MessagingChange): void {
    const c = change.conversation;
    const version = change.type === "conversation" ? this.nextVersion(c) : undefined;
    const target = this.settings.messaging;
    if (!target) return;
    if (change.type === "message") {
      this.post("messaging", target.url, {
        page_id: c.page_id,
        event_type: "messaging",
        data: { conversation: summary(c), message: this.messageOf(c, change.message), post: this.messaging.posts.find((p) => p.id === c.post_id) ?? null },
      });
      return;
    }
    this.post("conversation", target.url, {
      event_type: "conversation",
      page_id: c.page_id,
      request_id: randomUUID(),
      timestamp: Math.floor(this.clock() / 1000),
      data: { conversation: { ...summary(c), customer_id: c.customer_id, from: c.from, version } },
    });
  }

  /** The conversation's next version: its first counts the changes its histories hold. */
  private nextVersion(c: ConversationRecord): number {
    const next = (this.versions.get(c.id) ?? c.message_count + c.tag_histories.length + c.assignee_histories.length) + 1;
    this.versions.set(c.id, next);
    return next;
  }

  /** The message as the event carries it: a customer's sender names their page customer record. */
  private messageOf(c: ConversationRecord, m: MessageRecord) {
    if (m.from.admin_id !== undefined) return m;
    const customer = this.messaging.customers.find((p) => p.page_id === c.page_id && p.psid === m.from.id);
    return { ...m, from: { ...m.from, page_customer_id: customer?.id ?? null } };
  }

  private post(event: WebhookDelivery["event"], url: string, payload: unknown, headers: Record<string, string> = {}): void {
    const delivery: WebhookDelivery = { event, url, body: JSON.stringify(payload) };
    this.deliveries.push(delivery);
    if (this.deliveries.length > KEEP_DELIVERIES) this.deliveries.shift();
    const done = deliver(url, delivery.body, headers).then(
      (status) => {
        delivery.status = status;
      },
      (error: unknown) => {
        delivery.error = error instanceof Error ? error.message : String(error);
      },
    );
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }
}

/** The conversation fields both messaging events carry (the OpenAPI's Conversation). */
function summary(c: ConversationRecord) {
  return {
    id: c.id,
    assignee_ids: c.assignee_ids,
    from: { id: c.from.id, name: c.from.name },
    is_combined: c.is_combined,
    is_removed: c.is_removed,
    // Replied: the last word is the page's.
    is_replied: c.last_sent_by.admin_id !== undefined,
    read_watermarks: c.read_watermarks,
    seen: c.seen,
    snippet: c.snippet,
    tags: c.tags,
    type: c.type,
  };
}

/** POSTs a JSON body on a connection of its own; resolves with the status, rejects on any failure. */
function deliver(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: "POST",
        agent: false,
        timeout: DELIVERY_TIMEOUT_MS,
        headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      },
      (res) => {
        res.on("error", reject);
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.resume();
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${DELIVERY_TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}
