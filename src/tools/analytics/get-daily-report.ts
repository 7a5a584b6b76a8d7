import { z } from "zod";
import { defineTool, READ } from "../define.js";
import { shopIdInput } from "../inputs.js";
import { pageIdsInput } from "../pages/page-refs.js";
import { dailyReport } from "./daily-report.js";

const section = z.union([z.looseObject({}), z.object({ unavailable: z.string() })]);

export const getDailyReport = defineTool({
  name: "get_daily_report",
  title: "Daily report",
  description:
    "One day of the shop in one call: per page inbox figures, top staff, sales totals (with the POS). Example: yesterday: date \"yesterday\".",
  toolset: "analytics",
  annotations: READ,
  input: z.object({
    date: z.string().max(40).describe("YYYY-MM-DD, today or yesterday"),
    page_ids: pageIdsInput,
    shop_id: shopIdInput,
  }),
  output: z.object({
    date: z.string(),
    time_zone: z.string(),
    inbox: z.array(z.looseObject({ page_id: z.string(), name: z.string().optional() })),
    staff: section,
    sales: section.optional().describe("Its figures line says what each counts"),
    note: z.string().optional(),
  }),
  async handler(input, ctx) {
    const { data, noPos } = await dailyReport(input, ctx);
    return { ...data, note: noPos ? "no sales: the POS is not configured (PANCAKE_POS_API_KEY)" : undefined };
  },
});
