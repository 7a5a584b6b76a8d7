import type { AnyTool } from "../define.js";
import { createOrder } from "./create-order.js";
import { createReturnOrder } from "./create-return-order.js";
import { getOrder } from "./get-order.js";
import { listReturnOrders } from "./list-return-orders.js";
import { searchOrders } from "./search-orders.js";
import { searchProducts } from "./search-products.js";
import { updateOrder } from "./update-order.js";

export const tools: AnyTool[] = [searchOrders, getOrder, createOrder, updateOrder, listReturnOrders, createReturnOrder, searchProducts];
