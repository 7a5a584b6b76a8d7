import type { AnyPrompt } from "./define.js";

export const dailyShopReport: AnyPrompt | undefined = undefined;
