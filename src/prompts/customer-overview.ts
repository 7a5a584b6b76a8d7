import type { AnyPrompt } from "./define.js";

export const customerOverview: AnyPrompt | undefined = undefined;
