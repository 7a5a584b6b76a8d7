import type { AnyTool } from "../define.js";
import { getAdStats } from "./get-ad-stats.js";
import { getPageStats } from "./get-page-stats.js";
import { getStaffStats } from "./get-staff-stats.js";

export const tools: AnyTool[] = [getPageStats, getStaffStats, getAdStats];
