import type { AnyTool } from "../define.js";
import { getAdStats } from "./get-ad-stats.js";
import { getEngagementStats } from "./get-engagement-stats.js";
import { getNewCustomerStats } from "./get-new-customer-stats.js";
import { getPageStats } from "./get-page-stats.js";
import { getStaffStats } from "./get-staff-stats.js";
import { getTagStats } from "./get-tag-stats.js";

export const tools: AnyTool[] = [getEngagementStats, getPageStats, getTagStats, getStaffStats, getNewCustomerStats, getAdStats];
