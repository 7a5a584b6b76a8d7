import { MAIN_PAGE_COUNT, type MessagingState } from "./messaging/index.js";
import { scaleInbox } from "./messaging/scale.js";
import { parseIso } from "./messaging/time.js";
import { copyPeople, type Person, phonesOf } from "./people.js";
import type { PosState } from "./pos/index.js";
import { scaleOrders } from "./pos/scale.js";

/**
 * The demo shop `scale` times over, the same shape (SandboxOptions.scale): scale - 1 copies of
 * every person, of the main pages' customers and conversations and of every order and buyer,
 * each copy its own people and ids, its times a little earlier (copies.ts). Scale 1 leaves the data
 * set as it is.
 */
export function scaleShop(messaging: MessagingState, pos: PosState, people: readonly Person[], scale: number): void {
  if (scale <= 1) return;
  const phones = phonesOf(people);
  const copies = Array.from({ length: scale - 1 }, (_, i) => copyPeople(people, i + 1, phones));
  const pageIds = messaging.pages.slice(0, MAIN_PAGE_COUNT).map((p) => p.id);
  const inbox = scaleInbox(messaging, pageIds, people, copies);
  const postTimes = new Map(messaging.posts.map((p) => [p.id, parseIso(p.inserted_at)]));
  scaleOrders(pos, { people, copies, inbox, postTimes });
}
