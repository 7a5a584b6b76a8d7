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

/** A toolset, or `default`: the default tools below. */
export type ToolsetChoice = ToolsetName | "default";

/**
 * The default tools: every kind of question a seller asks (inbox load and who awaits a reply,
 * a customer's history, staff work, revenue and best sellers, stock, money owed, cash flow, ad return,
 * missed calls, tag usage, an order by its number) answered in a list small enough for good tool
 * choice, and the everyday writes: replies, orders one or many at a time (status, notes, tags),
 * and a price change. Over HTTP no tool can be added mid-session, and a client that ignores
 * tools/list_changed never sees an added one, so a price change cost a user trial a dead end. It
 * was paid for with repetition: examples the listed schemas now show (create_order,
 * update_product_prices), a list_pages sentence every page parameter says, and the `search` texts
 * of search_products and search_customers, which their descriptions say. Rare writes and
 * back-office tools stay one `enable_toolset` (or --toolsets) away.
 */
export const DEFAULT_TOOLS: readonly string[] = [
  "list_pages",
  "list_conversations",
  "list_messages",
  "send_inbox_message",
  "reply_to_comment",
  "send_private_reply",
  "update_conversation_tags",
  "assign_conversation",
  "mark_conversation",
  "list_page_tags",
  "get_page_stats",
  "get_staff_stats",
  "get_ad_stats",
  "list_call_logs",
  "list_shops",
  "lookup_address",
  "search_orders",
  "get_order",
  "create_order",
  "update_order",
  "search_products",
  "update_product_prices",
  "search_customers",
  "add_customer_note",
  "list_debts",
  "list_transactions",
  "get_sales_analytics",
];

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
  fulfillment: "parcel tracking",
  api: "every other documented operation of both APIs, found by keyword and called by id",
};
