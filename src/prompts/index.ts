import { customerOverview } from "./customer-overview.js";
import { dailyShopReport } from "./daily-shop-report.js";
import type { AnyPrompt } from "./define.js";
import { draftCustomerReply } from "./draft-customer-reply.js";

/** Every prompt the server offers. */
export const prompts: AnyPrompt[] = [draftCustomerReply, dailyShopReport, customerOverview].filter(
  (p): p is AnyPrompt => p !== undefined,
);
