import type { Person } from "../people.js";
import { Random } from "../random.js";
import { buildGeo } from "./geo-data.js";
import { PARTNERS, seedCatalog, seedCategories, seedLevels, seedOrderSources, seedShop, seedUsers, seedWarehouses } from "./seed-catalog.js";
import { seedBackOffice } from "./seed-backoffice.js";
import { dropStrangers, seedCustomers } from "./seed-customers.js";
import { seedLoyalty, seedReturns } from "./seed-loyalty.js";
import { type InboxLinks, linkInbox } from "./seed-links.js";
import { ORDER_TAGS, seedOrders } from "./seed-orders.js";
import type { PosState } from "./state.js";

export const SANDBOX_POS_API_KEY = "sandbox-pos-key-7f3a9c2e41d8";
const ORDER_COUNT = 560;

/**
 * The POS data set of a Vietnamese fashion shop, the same for the same `now` and people. With
 * `inbox`, the shop sells through the inbox's pages and its orders point to their posts and ads.
 */
export function seedPos(ctx: { now: Date; people: Person[]; inbox?: InboxLinks }): PosState {
  const now = ctx.now.getTime();
  const rng = new Random(84_2026);
  const geo = buildGeo();
  const users = seedUsers(rng);
  const shop = seedShop(rng, now, users.find((u) => u.department.name === "Marketing")!, ctx.inbox?.pages);
  const warehouses = seedWarehouses(rng, geo);
  const { products, variations } = seedCatalog(rng, now, warehouses);
  const { customers, notes, psids } = seedCustomers(new Random(84_2027), now, ctx.people, geo, users, ctx.inbox);
  const state: PosState = {
    apiKey: SANDBOX_POS_API_KEY,
    now: ctx.now,
    shop,
    geo,
    users,
    partners: PARTNERS.map((p) => ({ ...p })),
    orderSources: seedOrderSources(shop, now),
    warehouses,
    categories: seedCategories(),
    products,
    variations,
    orderTags: ORDER_TAGS.map((tag) => ({ ...tag, groups: [...tag.groups] })),
    levels: seedLevels(rng),
    customers,
    customerNotes: notes,
    pointLogs: [],
    orders: [],
    returnOrders: [],
    transactions: [],
    debts: [],
    paymentHistories: [],
    purchases: [],
    inventoryHistories: [],
    stockExports: [],
    transfers: [],
    stocktakings: [],
    promotions: [],
    combos: [],
    formulas: [],
    analyticFields: [],
    customerPromotions: [],
    adCosts: [],
    transactionTags: [],
    sequences: {},
  };
  seedOrders(state, new Random(84_2028), ORDER_COUNT);
  linkInbox(state, new Random(84_2032), ctx.inbox, psids);
  seedReturns(state, new Random(84_2029));
  seedLoyalty(state, new Random(84_2030));
  seedBackOffice(state, new Random(84_2031));
  dropStrangers(state, new Random(84_2033));
  return state;
}
