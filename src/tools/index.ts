import type { Config } from "../config.js";
import { type AnyTool, isWriteTool } from "./define.js";
import { tools as analytics } from "./analytics/index.js";
import { tools as api } from "./api/index.js";
import { tools as catalog } from "./catalog/index.js";
import { tools as customers } from "./customers/index.js";
import { tools as finance } from "./finance/index.js";
import { tools as fulfillment } from "./fulfillment/index.js";
import { tools as inbox } from "./inbox/index.js";
import { tools as inventory } from "./inventory/index.js";
import { tools as orders } from "./orders/index.js";
import { tools as pageData } from "./page-data/index.js";
import { tools as pageStats } from "./page-stats/index.js";
import { tools as pages } from "./pages/index.js";
import { tools as promotions } from "./promotions/index.js";
import { tools as shop } from "./shop/index.js";

/** Every tool, in the order tools/list shows them. */
export const allTools: readonly AnyTool[] = [
  ...pages,
  ...inbox,
  ...pageData,
  ...pageStats,
  ...shop,
  ...orders,
  ...customers,
  ...finance,
  ...analytics,
  ...inventory,
  ...promotions,
  ...catalog,
  ...fulfillment,
  ...api,
];

/** The tools a config exposes: its toolsets, minus every write when read-only. */
export function selectTools(config: Pick<Config, "toolsets" | "readOnly">): AnyTool[] {
  const wanted = new Set(config.toolsets);
  return allTools.filter((tool) => wanted.has(tool.toolset) && !(config.readOnly && isWriteTool(tool)));
}
