import type { Router } from "../server.js";
import { registerBackOfficeRoutes } from "./routes-backoffice.js";
import { registerCatalogRoutes } from "./routes-catalog.js";
import { registerCustomerRoutes } from "./routes-customers.js";
import { registerOrderRoutes } from "./routes-orders.js";
import { registerShopRoutes } from "./routes-shop.js";
import { PosApi } from "./api.js";
import type { PosState } from "./state.js";

export { SANDBOX_POS_API_KEY, seedPos } from "./seed.js";
export { AD_IDS, statusPath } from "./seed-orders.js";
export { FIRST_ORDER_ID } from "./order-model.js";
export { nextNumber, type PosState } from "./state.js";
export { MAX_PAGE_SIZE, REPEAT_AFTER_PAGE } from "./api.js";
export { orderTime } from "./order-query.js";
export type * from "./types.js";

/** Serves the simulated POS API below `prefix` (e.g. "/pos/api/v1"). */
export function registerPos(router: Router, state: PosState, prefix: string): PosApi {
  const api = new PosApi(router, state, prefix);
  registerShopRoutes(api);
  registerOrderRoutes(api);
  registerCustomerRoutes(api);
  registerBackOfficeRoutes(api);
  registerCatalogRoutes(api);
  return api;
}
