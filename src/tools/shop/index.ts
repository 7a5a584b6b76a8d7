import type { AnyTool } from "../define.js";
import { listShops } from "./list-shops.js";
import { lookupAddress } from "./lookup-address.js";

export const tools: AnyTool[] = [listShops, lookupAddress];
