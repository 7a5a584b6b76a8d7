import type { Sandbox } from "../../src/sandbox/index.js";
import { type ToolArgs, toolCalls } from "../fixtures/tool-calls.js";

/**
 * Tool calls that use every optional argument (and every code of the tables the vendor extends):
 * the fixture's calls reach each operation, these reach each parameter and body field a tool can
 * send, so the contract test sees them all.
 */
const base = (name: string) => toolCalls[name]!;
const page = (s: Sandbox) => s.messaging.pages[0]!.id;
const liveOrder = (s: Sandbox, i = 0) => s.pos.orders.filter((o) => !o.is_removed)[i]!;
const variation = (s: Sandbox, i = 0) => s.pos.variations[i]!;
const warehouse = (s: Sandbox, i = 0) => s.pos.warehouses[i]!;
const address = (s: Sandbox) => {
  const commune = s.pos.geo.communes[0]!;
  return { address: "12 Lê Lợi", commune_id: commune.id, district_id: commune.district_id, province_id: commune.province_id };
};

export const richCalls: [string, ToolArgs][] = [
  // inbox and page data
  ["list_conversations", (s) => ({ page_ids: [page(s)], type: ["INBOX", "COMMENT"], tags: [s.messaging.tags[page(s)]![0]!.id], unread_first: true, since: "2026-11-15", until: "today", limit: 5 })],
  ["list_conversations", (s) => ({ page_ids: [page(s)], since: "2026-11-15", until: "today", with_total: true, time_field: "created", limit: 5 })],
  ["list_conversations", () => ({ awaiting_reply: true, waiting_minutes: 30, type: ["INBOX"], since: "2026-11-15", limit: 5 })],
  ["list_conversations", (s) => ({ page_ids: [page(s)], type: ["RATING", "COMMENT"], time_field: "created", since: "2026-11-15", until: "today", group_by: ["type", "day"] })],
  ["list_messages", (s) => ({ ...base("list_messages")(s), customer_id: s.messaging.conversations.find((c) => c.page_id === page(s) && c.type === "INBOX")!.customers[0]!.id })],
  ["send_inbox_message", (s) => ({ ...base("send_inbox_message")(s), content_url: "https://content.example.com/photos/ao-thun.jpg" })],
  ["send_inbox_message", (s) => ({ ...base("send_inbox_message")(s), message: undefined, content_url: "https://content.example.com/docs/bang-gia.pdf" })],
  ["reply_to_comment", (s) => ({ ...base("reply_to_comment")(s), content_url: "https://content.example.com/photos/ao-thun.jpg", image_data: { width: 800, height: 600 } })],
  ["mark_conversation", (s) => ({ ...base("mark_conversation")(s), state: "unread" })],
  ["list_page_customers", (s) => ({ page_id: page(s), since: "2026-11-01", until: "today", order_by: "updated_at", limit: 5 })],
  ["list_posts", (s) => ({ page_id: page(s), since: "2026-11-01", until: "today", type: "photo", limit: 5 })],
  ["list_call_logs", (s) => ({ ...base("list_call_logs")(s), since: "2026-11-01", until: "today" })],

  // page statistics
  ["get_page_stats", (s) => ({ metric: "engagement", page_ids: [page(s)], by: "hour_of_day", user_ids: [s.messaging.staff[0]!.id], since: "2026-11-15", until: "today" })],
  ["get_page_stats", (s) => ({ metric: "engagement", page_ids: [page(s)], by: "day", since: "2026-11-15", until: "today" })],
  ["get_page_stats", (s) => ({ page_ids: [page(s)], by: "hour", since: "yesterday", until: "today" })],
  ["get_page_stats", () => ({ metric: "tags", since: "2026-11-01", sort_by: "net", limit: 5 })],
  ["get_staff_stats", (s) => ({ page_ids: s.messaging.pages.slice(0, 2).map((p) => p.id), sort_by: "conversations" })],
  ["get_page_stats", (s) => ({ metric: "new_customers", page_ids: s.messaging.pages.slice(0, 2).map((p) => p.id), by: "page" })],
  ["get_page_stats", (s) => ({ metric: "new_customers", page_ids: [page(s)], by: "hour", since: "yesterday", until: "today" })],
  ["get_ad_stats", (s) => ({ ...base("get_ad_stats")(s), view: "ads" })],
  ["get_ad_stats", (s) => ({ ...base("get_ad_stats")(s), view: "days" })],

  // shop
  ["lookup_address", () => ({ query: "Ben Nghe", province_list: "all" })],
  ["lookup_address", () => ({ province_list: "new" })],
  ["list_warehouses", () => ({ detail: "full" })],
  [
    "save_warehouse",
    (s) => ({ name: "Kho Cần Thơ", shelf_config: { col: "3" }, phone_number: "0900111222", ...address(s), extra: { hide_config_batch_shelf: false } }),
  ],
  ["save_warehouse", (s) => ({ warehouse_id: warehouse(s).id, phone_number: "0900111333", shelf_config: { col: "2" }, ...address(s) })],

  // orders
  [
    "search_orders",
    (s) => ({
      search: "09",
      statuses: ["new", "waiting_for_confirmation", "canceled", 7],
      time_field: "updated_at",
      since: "2026-11-01",
      until: "today",
      sort: "order_valuation",
      ascending: true,
      carriers: [s.pos.partners[0]!.name],
      sources: [s.pos.orderSources[0]!.name],
      exclude_sources: true,
      ad_ids: ["23851252560290199"],
      include_removed: true,
      fields: ["id", "status", "total_price"],
      limit: 5,
    }),
  ],
  ["search_orders", (s) => ({ customer_id: s.pos.customers[0]!.id, time_field: "shipped", since: "2026-11-01", limit: 5 })],
  ["search_orders", () => ({ statuses: ["shipped"], status_older_than: "1 week", limit: 5 })],
  ["search_orders", () => ({ group_by: ["province", "week"], time_field: "shipped", since: "2026-11-01", status_older_than: "2 days", group_sort: "cod" })],
  ["get_order", (s) => ({ order_id: liveOrder(s).id, detail: "full" })],
  [
    "create_order",
    (s) => ({
      ...base("create_order")(s),
      customer_id: s.pos.customers[0]!.id,
      shipping_address: address(s),
      status: "confirmed",
      shipping_fee: 30_000,
      total_discount: 10_000,
      note: "Giao giờ hành chính",
      extra: { cash: 100_000, page_id: page(s), custom_id: "DH-0001", note_print: "Cho xem hàng" },
    }),
  ],
  [
    "update_order",
    (s) => ({
      // Lines are replaced only while an order is new.
      order_id: s.pos.orders.filter((o) => !o.is_removed && o.status === 0)[1]!.id,
      items: [{ variation_id: variation(s, 2).id, quantity: 2 }],
      customer_name: "Chị Hoa",
      phone: "0987000222",
      shipping_address: address(s),
      shipping_fee: 25_000,
      total_discount: 0,
    }),
  ],
  ["update_order", (s) => ({ order_id: liveOrder(s, 2).id, status: "canceled" })],
  ["update_order", (s) => ({ order_id: liveOrder(s, 3).id, add_tags: [s.pos.orderTags[0]!.name] })],
  ["update_order", (s) => ({ order_ids: [liveOrder(s, 4).id, liveOrder(s, 5).id], add_note: "Đã gọi xác nhận", remove_tags: [s.pos.orderTags[0]!.id] })],
  ["list_return_orders", () => ({ status: "canceled", time_field: "updated_at", since: "2026-11-01", until: "today", limit: 5 })],
  [
    "create_return_order",
    (s) => ({
      ...base("create_return_order")(s),
      status: "completed",
      exchange_items: [{ variation_id: variation(s, 3).id, quantity: 1 }],
      discount_from_order_to_returned: 5_000,
      received_at_shop: true,
      note: "Đổi size",
    }),
  ],
  ["search_products", () => ({ search: "áo", limit: 5, detail: "full" })],
  ["search_products", (s) => ({ variation_ids: [variation(s).id, variation(s, 1).id] })],

  // customers
  ["search_customers", (s) => ({ search: "Nguyễn", levels: [s.pos.levels[0]!.name], time_field: "updated", since: "2026-10-01", until: "today", limit: 5 })],
  ["search_customers", (s) => ({ customer_ids: [s.pos.customers[0]!.id], time_field: "created", since: "2025-01-01", detail: "full" })],
  [
    "save_customer",
    (s) => ({
      name: "Lê Thị Hồng",
      phone_numbers: ["0977000444"],
      emails: ["hong@example.com"],
      date_of_birth: "1995-04-12",
      tags: ["VIP"],
      level: s.pos.levels[0]!.name,
      addresses: [{ ...address(s), full_name: "Lê Thị Hồng", phone_number: "0977000444" }],
      extra: { gender: "female" },
    }),
  ],
  [
    "save_customer",
    (s) => ({
      customer_id: s.pos.customers[1]!.id,
      name: "Lê Văn Hùng",
      emails: ["hung@example.com"],
      tags: ["Sỉ"],
      addresses: [{ ...address(s), full_name: "Lê Văn Hùng", phone_number: "0977000555" }],
      extra: { is_block: false, reward_point: 10 },
    }),
  ],
  ["add_customer_note", (s) => ({ customer_id: s.pos.customers[0]!.id, message: "Đã gọi", order_id: liveOrder(s).id, conversation_id: "c1", page_id: page(s), image_urls: ["https://content.example.com/n.jpg"] })],
  ["list_customer_levels", () => ({ search: "Vàng" })],
  [
    "create_customer_promotions",
    (s) => ({ ...base("create_customer_promotions")(s), max_discount_by_percent: 50_000, order_price_min: 200_000, since: "today", until: "2026-12-31", is_activated: true }),
  ],

  // finance
  ["list_transactions", () => ({ status: "in_effect", since: "2026-11-01", until: "today", limit: 5 })],
  [
    "create_transaction",
    (s) => ({
      name: "Thu tiền ví",
      amount: 500_000,
      note: "Khách trả qua ví",
      payments: ["transfer_money", "charged_by_card", "charged_by_momo", "charged_by_vnpay", "charged_by_kredivo", "charged_by_fundiin", "charged_by_qrpay"],
      time_incurred: "today",
      order_id: String(liveOrder(s).id),
      fields: { tag_ids: ["1"], supplier_products_id: 1, payment_debts_to_suppliers: false, is_accounting: true, is_locked: false, images: ["https://content.example.com/r.jpg"] },
    }),
  ],
  ["list_payment_histories", () => ({ since: "2026-11-01", until: "today", limit: 5 })],
  ["list_debts", (s) => ({ status: "open", customer_id: s.pos.customers[0]!.id })],

  // analytics
  [
    "get_sales_analytics",
    (s) => ({
      since: "2026-11-01",
      until: "today",
      split_by: ["Time.day", "Order.source"],
      filter: { "Variation.id": [variation(s).id] },
      success_status: "confirmed",
      success_record: "updated_at",
      user_type: "assign",
      returned_status: "returning",
      returned_record: "success_record",
      select_fields: ["price", "order_count"],
    }),
  ],

  // inventory
  ["list_purchases", () => ({ status: "imported", limit: 5 })],
  ["list_inventory_history", (s) => ({ warehouse_id: warehouse(s).id, variation_ids: [variation(s).id], since: "2026-10-01", until: "today", limit: 5 })],
  ["list_stock_exports", () => ({ status: "completed", type: "defective", limit: 5 })],
  ["create_stock_export", (s) => ({ ...base("create_stock_export")(s), type: "normal", note: "Xuất mẫu", supplier_products_id: 1, inserted_at: "today" })],
  ["list_stock_transfers", () => ({ status: "completed", since: "2026-10-01", until: "today", limit: 5 })],
  ["create_stock_transfer", (s) => ({ ...base("create_stock_transfer")(s), shipping_fee: 20_000, note: "Chuyển kho", inserted_at: "today" })],
  ["list_stocktakings", (s) => ({ stocktaking_id: s.pos.stocktakings[0]!.id })],
  [
    "save_stocktaking",
    (s) => ({
      ...base("save_stocktaking")(s),
      note: "Kiểm cuối tháng",
      items: [{ variation_id: variation(s).id, changed_quantity: -1 }],
      stocktaking_at: "today",
      stocktaking_by: "category_ids",
      stocktaking_by_value: ["1"],
      creator_id: s.pos.users[0]!.id,
    }),
  ],
  [
    "save_stocktaking",
    (s) => {
      const taking = s.pos.stocktakings.find((t) => Array.isArray(t.items) && t.items.length > 0)!;
      const line = (taking.items as { id: string; variation_id: string }[])[0]!;
      return {
        stocktaking_id: taking.id,
        warehouse_id: taking.warehouse_id,
        status: "counted",
        note: "Đã kiểm",
        items: [{ id: line.id, variation_id: line.variation_id, changed_quantity: 2, note: "Thừa" }],
      };
    },
  ],

  // promotions
  ["list_promotions", () => ({ search: "Giảm", limit: 5 })],
  ["save_promotion", (s) => ({ promotion_id: s.pos.promotions[0]!.id, name: "Giảm 15%", is_activated: false, start_time: "today", end_time: "2026-12-31" })],
  [
    "create_combo",
    (s) => ({ ...base("create_combo")(s), discount_amount: undefined, discount_by_percent: 10, max_discount_by_percent: 50_000, is_free_shipping: true, order_types: ["online"], start_time: "today", end_time: "2026-12-31" }),
  ],
];

/** The sends whose form differs without a user token (the OpenAPI's page-token form: uploads, content_ids). */
export const pageTokenSends: [string, ToolArgs][] = [
  ["send_inbox_message", (s) => base("send_inbox_message")(s)],
  ["send_inbox_message", (s) => ({ ...base("send_inbox_message")(s), content_url: s.mediaUrl("ao-thun.png") })],
  ["send_inbox_message", (s) => ({ ...base("send_inbox_message")(s), message: undefined, content_url: s.mediaUrl("bang-gia.pdf") })],
  ["reply_to_comment", (s) => base("reply_to_comment")(s)],
  ["reply_to_comment", (s) => ({ ...base("reply_to_comment")(s), content_url: s.mediaUrl("ao-thun.jpg"), image_data: { width: 1, height: 1 } })],
  ["send_private_reply", (s) => base("send_private_reply")(s)],
];
