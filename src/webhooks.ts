import { createHash, timingSafeEqual } from "node:crypto";
import type { Clients } from "./clients/index.js";
import type { Conversation } from "./clients/schemas/messaging.js";
import type { Logger } from "./log.js";
import { orderVersion } from "./shop-index/order-rows.js";
import { afterChange, afterMessage, pushedOrder } from "./shop-index/pushed.js";
import type { RowIndex } from "./shop-index/row-index.js";
import type { ShopIndex } from "./shop-index/service.js";
import { indexWrites, withIndexWrites } from "./state/redis-index.js";
import { cachedShops } from "./tools/pos/resolve-shop.js";

/**
 * The services' webhooks, in HTTP mode, keeping the shop index live between refreshes.
 *
 * - POS: `POST /webhooks/pos`, with the header `X-Webhook-Secret: <secret>` (the POS lets the shop
 *   set request headers on its webhook).
 * - Messaging: `POST /webhooks/messaging/<secret>`: that service sends no custom header, so the
 *   secret is a segment of the address it is given.
 *
 * The secret names the tenant (PANCAKE_WEBHOOK_SECRET, or a tenant's `webhook_secret`); a forged,
 * malformed or oversized delivery, or one for a shop or page not the tenant's, is refused with
 * nothing stored. An accepted one is answered within a second (Pancake suspends a webhook whose
 * deliveries mostly fail) and applied only where newer than what the index holds, at the precision
 * the events carry, so a delivery repeated or late changes nothing (`applied: 0`). One the shared
 * index (Redis) did not store is answered 503, so that Pancake delivers it again; the redelivery
 * stores it. The index refreshes from the upstream anyway: a delivery lost never loses a change, it
 * only waits for the next refresh.
 */

export interface WebhookTenant {
  id: string;
  secret: string;
  clients: Clients;
  index: ShopIndex | undefined;
  logger: Logger;
  /** Shops given a key of their own (shop_id=key); with one key for every shop, its shops are those it lists. */
  keyedShops?: readonly string[];
}

export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Larger than any order or message event; a bigger body is refused unread. */
export const WEBHOOK_MAX_BYTES = 256 * 1024;
export const SECRET_HEADER = "x-webhook-secret";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The tenant whose secret this is (compared by digest, in constant time). */
export function tenantBySecret(tenants: readonly WebhookTenant[], secret: string | undefined): WebhookTenant | undefined {
  if (!secret) return undefined;
  const given = digest(secret);
  return tenants.find((t) => timingSafeEqual(digest(t.secret), given));
}

const refused = (status: number, error: string): WebhookAnswer => ({ status, body: { ok: false, error } });

/** Answers one delivery to `/webhooks/...`: `rest` is the path after `/webhooks/`. */
export async function receiveWebhook(
  tenants: () => readonly WebhookTenant[],
  rest: string,
  headers: Record<string, string | string[] | undefined>,
  body: string | "too_large",
): Promise<WebhookAnswer> {
  const [service, pathSecret, ...extra] = rest.split("/");
  if ((service !== "pos" && service !== "messaging") || extra.length > 0 || (service === "pos" && pathSecret !== undefined)) {
    return refused(404, "webhooks are received at /webhooks/pos (with the X-Webhook-Secret header) and /webhooks/messaging/<secret>");
  }
  const header = headers[SECRET_HEADER];
  const tenant = tenantBySecret(tenants(), service === "pos" ? (Array.isArray(header) ? header[0] : header) : pathSecret);
  if (!tenant) return refused(401, "unknown webhook secret: nothing was stored");
  if (body === "too_large") return refused(413, `a webhook body is at most ${WEBHOOK_MAX_BYTES} bytes: nothing was stored`);
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return refused(400, "the body is not JSON: nothing was stored");
  }
  const apply = service === "pos" ? () => posEvent(tenant, event) : () => messagingEvent(tenant, event);
  const work = withIndexWrites(apply).then(
    ({ value: answer, writes }): WebhookAnswer => {
      if (writes.failed === undefined || answer.status >= 300) return answer;
      tenant.logger.warn(`webhook (${service}) not stored: ${message(writes.failed)}`);
      return refused(503, "not stored: the shared index (Redis) is unavailable now; deliver it again");
    },
    (error: unknown): WebhookAnswer => {
      tenant.logger.warn(`webhook (${service}) not applied: ${message(error)}`);
      return refused(503, "could not be applied now: the index reads the change at its next refresh");
    },
  );
  // Answered within a second whatever the work costs (a first delivery may load a big index). A
  // write that fails after this is not lost: the shared index sends it again with its next write.
  const late = new Promise<WebhookAnswer>((resolve) => setTimeout(() => resolve({ status: 202, body: { ok: true, note: "accepted: being applied" } }), ANSWER_WITHIN_MS).unref());
  return Promise.race([work, late]);
}

/** Pancake suspends a webhook whose deliveries mostly fail or time out: an answer comes before this. */
const ANSWER_WITHIN_MS = 800;
/** A shop the key's list does not name may be new: the list is read again, at most this often. */
const RELIST_SHOPS_MS = 60_000;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Whether the shop is the tenant's: one given a key of its own, or, with one key for every shop,
 * one that key lists (the shop list, cached; read again when it does not name the shop, at most
 * once a minute, for a shop added since).
 */
async function tenantShop(tenant: WebhookTenant, shopId: string): Promise<boolean> {
  const pos = tenant.clients.pos;
  if (!pos.servesShop(shopId)) return false;
  if (tenant.keyedShops?.includes(shopId)) return true;
  const names = (shops: readonly { id?: unknown }[]) => shops.some((shop) => String(shop.id) === shopId);
  if (names(await cachedShops(pos))) return true;
  const relisted = tenant.clients.state.local("webhook-shops", () => ({ at: 0 }));
  if (Date.now() - relisted.at < RELIST_SHOPS_MS) return false;
  relisted.at = Date.now();
  return names(await pos.listShops());
}

/**
 * Brings the index up to what other replicas wrote, and says whether it holds anything yet (a
 * pushed change applies only then). A delivery is ordered against the newest row any replica has.
 */
async function current<R, C extends object>(index: RowIndex<R, C>): Promise<boolean> {
  await index.holds(null);
  return index.active();
}

/**
 * Applies a pushed row (undefined: not newer than the row held) and says how many rows this
 * delivery stored: the row, or the row held when an earlier delivery of it was applied here but
 * not stored (Redis away; that one was answered 503, and this is Pancake delivering it again).
 */
async function applyPushed<R, C extends object>(index: RowIndex<R, C>, id: string, row: R | undefined): Promise<number> {
  const applied = row === undefined ? 0 : await index.apply([row]);
  if (applied > 0) return applied;
  await index.flush();
  return indexWrites()?.stored.has(id) ? 1 : 0;
}

async function posEvent(tenant: WebhookTenant, event: unknown): Promise<WebhookAnswer> {
  const pushed = pushedOrder(event);
  // Customers, products and stock are not indexed: accepted, so the POS keeps the webhook on.
  if (!pushed) return { status: 200, body: { ok: true, applied: 0, note: "not an order: nothing indexed" } };
  if (!(await tenantShop(tenant, pushed.shopId))) return refused(404, `shop ${pushed.shopId} is not one of this tenant's shops: nothing was stored`);
  const index = tenant.index?.orders(pushed.shopId);
  if (!index || !(await current(index))) return { status: 200, body: { ok: true, applied: 0, note: "no index of this shop yet" } };
  const id = String(pushed.order.id);
  const held = index.get(id);
  // As new as the order held (the same second and status history) is no newer: nothing changes.
  const newer = held === undefined || orderVersion(pushed.order) > orderVersion(held);
  return { status: 200, body: { ok: true, applied: await applyPushed(index, id, newer ? pushed.order : undefined) } };
}

async function messagingEvent(tenant: WebhookTenant, event: unknown): Promise<WebhookAnswer> {
  const e = event as { page_id?: unknown; event_type?: unknown; data?: unknown };
  const data = typeof e?.data === "object" && e.data !== null ? (e.data as Record<string, unknown>) : undefined;
  if (typeof e?.page_id !== "string" || typeof e.event_type !== "string" || !data) return refused(400, "not a messaging webhook (page_id, event_type, data): nothing was stored");
  const pageId = e.page_id;
  if (!(await tenant.clients.messaging.activePageIds()).includes(pageId)) return refused(404, `page ${pageId} is not one of this tenant's pages: nothing was stored`);
  if (e.event_type !== "messaging" && e.event_type !== "conversation") return { status: 200, body: { ok: true, applied: 0, note: `${e.event_type} events are not indexed` } };
  const conversationId = (data.conversation as { id?: unknown } | undefined)?.id;
  if (typeof conversationId !== "string") return refused(400, "the event names no conversation: nothing was stored");
  const index = tenant.index?.conversations(pageId);
  if (!index || !(await current(index))) return { status: 200, body: { ok: true, applied: 0, note: "no index of this page yet" } };
  const held = index.get(conversationId);
  if (!held) {
    // A conversation the index has not read (a new one): the next question reads it with the refresh.
    await index.markDirty();
    return { status: 200, body: { ok: true, applied: 0, note: "a conversation not yet read: read at the next refresh" } };
  }
  const row: Conversation | undefined = e.event_type === "messaging" ? afterMessage(held, pageId, data) : afterChange(held, data);
  return { status: 200, body: { ok: true, applied: await applyPushed(index, conversationId, row) } };
}
