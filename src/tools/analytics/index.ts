import type { AnyTool } from "../define.js";
import { getSalesAnalytics } from "./get-sales-analytics.js";
import { listSalesMetrics } from "./list-sales-metrics.js";

export const tools: AnyTool[] = [getSalesAnalytics, listSalesMetrics];
