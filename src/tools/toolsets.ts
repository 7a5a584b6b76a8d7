/** Toolset names are part of the public contract (PANCAKE_TOOLSETS, --toolsets). */
export const TOOLSETS = [
  "pages",
  "inbox",
  "page_data",
  "page_stats",
  "shop",
  "orders",
  "customers",
  "finance",
  "analytics",
  "inventory",
  "promotions",
  "catalog",
  "fulfillment",
  "api",
] as const;

export type ToolsetName = (typeof TOOLSETS)[number];

/** The default set: what most sellers ask about, small enough for good tool choice. */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ["pages", "inbox", "shop", "orders", "customers"];

export const TOOLSET_DESCRIPTIONS: Record<ToolsetName, string> = {
  pages: "pages of the account, page staff, page tokens",
  inbox: "conversations, messages, replies, tags, assignment, read state",
  page_data: "page customers, posts, call logs",
  page_stats: "engagement, page, tag, staff, new-customer and ad statistics",
  shop: "shops, address lookup, warehouses",
  orders: "orders, return orders, products and variations",
  customers: "POS customers, points, notes, levels, customer promotions",
  finance: "income/expense transactions, ad costs, payment histories, debts",
  analytics: "sales analytics and metric definitions",
  inventory: "purchases, stock exports, transfers, stocktakings, inventory history",
  promotions: "advanced promotions and combos",
  catalog: "add products, change prices",
  fulfillment: "order tags, parcel tracking",
  api: "every other documented operation of both APIs, found by keyword and called by id",
};
