import type { AnyTool } from "../define.js";
import { listShops } from "./list-shops.js";
import { listWarehouses } from "./list-warehouses.js";
import { lookupAddress } from "./lookup-address.js";
import { saveWarehouse } from "./save-warehouse.js";

export const tools: AnyTool[] = [listShops, lookupAddress, listWarehouses, saveWarehouse];
