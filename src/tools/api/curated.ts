import type { ToolsetName } from "../../toolsets.js";

/**
 * The writes the curated tools send, by operation id, and the tools (with their toolsets) that
 * send them, kept in step with the tools by test/contract/coverage.test.ts, which records what
 * each tool sends (its failure prints the map to paste here). find_api_operations names these tools, and
 * call_api_write always refuses such a write: the curated tool resolves names, checks the rules and
 * asks the user first.
 */
export const CURATED: Record<string, readonly (readonly [tool: string, toolset: ToolsetName])[]> = {
  "messaging POST /public_api/v1/pages/{page_id}/conversations/{conversation_id}/assign": [["assign_conversation", "inbox"]],
  "messaging POST /public_api/v1/pages/{page_id}/conversations/{conversation_id}/messages": [["reply_to_comment", "inbox"], ["send_inbox_message", "inbox"], ["send_private_reply", "inbox"]],
  "messaging POST /public_api/v1/pages/{page_id}/conversations/{conversation_id}/read": [["mark_conversation", "inbox"]],
  "messaging POST /public_api/v1/pages/{page_id}/conversations/{conversation_id}/tags": [["update_conversation_tags", "inbox"]],
  "messaging POST /public_api/v1/pages/{page_id}/conversations/{conversation_id}/unread": [["mark_conversation", "inbox"]],
  "messaging POST /public_api/v1/pages/{page_id}/upload_contents": [["reply_to_comment", "inbox"], ["send_inbox_message", "inbox"]],
  "messaging POST /v1/pages/{page_id}/conversations/{conversation_id}/messages": [["reply_to_comment", "inbox"], ["send_inbox_message", "inbox"], ["send_private_reply", "inbox"]],
  "messaging POST /v1/pages/{page_id}/generate_page_access_token": [["generate_page_access_token", "pages"]],
  "pos POST /shops/{shop_id}/adv_costs": [["record_ad_cost", "finance"]],
  "pos POST /shops/{shop_id}/combo_products": [["create_combo", "promotions"]],
  "pos POST /shops/{shop_id}/customers": [["save_customer", "customers"]],
  "pos POST /shops/{shop_id}/customers/{customer_id}/create_note": [["add_customer_note", "customers"]],
  "pos POST /shops/{shop_id}/export": [["create_stock_export", "inventory"]],
  "pos POST /shops/{shop_id}/orders": [["create_order", "orders"]],
  "pos POST /shops/{shop_id}/orders_returned": [["create_return_order", "orders"]],
  "pos POST /shops/{shop_id}/products": [["create_product", "catalog"]],
  "pos POST /shops/{shop_id}/promotion_advance": [["save_promotion", "promotions"]],
  "pos POST /shops/{shop_id}/promotion_advance/create_multi": [["create_customer_promotions", "customers"]],
  "pos POST /shops/{shop_id}/purchases/separate": [["split_purchase", "inventory"]],
  "pos POST /shops/{shop_id}/stocktakings": [["save_stocktaking", "inventory"]],
  "pos POST /shops/{shop_id}/transactions": [["create_transaction", "finance"]],
  "pos POST /shops/{shop_id}/transfers/multi": [["create_stock_transfer", "inventory"]],
  "pos POST /shops/{shop_id}/warehouses": [["save_warehouse", "shop"]],
  "pos PUT /shops/{shop_id}/customers/{customer_id}": [["save_customer", "customers"]],
  "pos PUT /shops/{shop_id}/orders/{order_id}": [["update_order", "orders"]],
  "pos PUT /shops/{shop_id}/products/{product_id}": [["update_product_prices", "catalog"]],
  "pos PUT /shops/{shop_id}/promotion_advance/{promotion_id}": [["save_promotion", "promotions"]],
  "pos PUT /shops/{shop_id}/stocktakings/{stocktaking_id}": [["save_stocktaking", "inventory"]],
  "pos PUT /shops/{shop_id}/warehouses/{warehouse_id}": [["save_warehouse", "shop"]],
};

/** Never called through the `api` tools, whatever is registered, and why. */
export const NEVER: Record<string, string> = {
  "messaging POST /v1/pages/{page_id}/generate_page_access_token":
    "it invalidates the page's current token and breaks every integration using it; only generate_page_access_token (toolset pages), with confirm, does it",
  "messaging POST /public_api/v1/pages/{page_id}/upload_contents":
    "it takes the file's bytes; send_inbox_message and reply_to_comment upload a file from its URL themselves",
};
