import type { AnyTool } from "../define.js";
import { getDailyReport } from "./get-daily-report.js";
import { getSalesAnalytics } from "./get-sales-analytics.js";
import { listSalesMetrics } from "./list-sales-metrics.js";

export const tools: AnyTool[] = [getSalesAnalytics, listSalesMetrics, getDailyReport];
