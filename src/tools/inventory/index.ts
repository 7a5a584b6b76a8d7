import type { AnyTool } from "../define.js";
import { createStockExport } from "./create-stock-export.js";
import { createStockTransfer } from "./create-stock-transfer.js";
import { listInventoryHistory } from "./list-inventory-history.js";
import { listPurchases } from "./list-purchases.js";
import { listStockExports } from "./list-stock-exports.js";
import { listStockTransfers } from "./list-stock-transfers.js";
import { listStocktakings } from "./list-stocktakings.js";
import { saveStocktaking } from "./save-stocktaking.js";
import { splitPurchase } from "./split-purchase.js";

export const tools: AnyTool[] = [
  listPurchases,
  splitPurchase,
  listInventoryHistory,
  listStockExports,
  createStockExport,
  listStockTransfers,
  createStockTransfer,
  listStocktakings,
  saveStocktaking,
];
