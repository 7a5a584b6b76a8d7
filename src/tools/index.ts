import type { Config } from "../config.js";
import { type AnyTool, isWriteTool } from "./define.js";
import { closestKey } from "./input-errors.js";
import { DEFAULT_TOOLS } from "../toolsets.js";
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

/** Every tool a config may ever expose: all of them, minus every write when read-only. */
export function availableTools(config: Pick<Config, "readOnly">): AnyTool[] {
  return allTools.filter((tool) => !(config.readOnly && isWriteTool(tool)));
}

/** The tools a config lists at start: its exact tool list, or its toolsets; never a write when read-only. */
export function selectTools(config: Pick<Config, "toolsets" | "readOnly" | "tools">): AnyTool[] {
  const named = config.tools && new Set(config.tools);
  const wanted = new Set<string>(config.toolsets);
  const byDefault = wanted.has("default") ? new Set(DEFAULT_TOOLS) : undefined;
  return availableTools(config).filter((tool) =>
    named ? named.has(tool.name) : wanted.has(tool.toolset) || byDefault?.has(tool.name) === true,
  );
}

/**
 * What is wrong with a list of tool names (the unknown ones, each with its nearest name), if
 * anything: checked where a server is assembled from a tool list (the CLI, the tenants file).
 */
export function unknownTools(tools: readonly string[] | undefined): string | undefined {
  const unknown = (tools ?? []).filter((name) => !allTools.some((t) => t.name === name));
  if (unknown.length === 0) return undefined;
  const names = allTools.map((t) => t.name);
  const each = unknown.map((name) => {
    const near = closestKey(name, names);
    return `${name}${near ? ` (did you mean ${near}?)` : ""}`;
  });
  return `no tool ${each.join(", ")}; see docs/tools.md or --toolsets`;
}
