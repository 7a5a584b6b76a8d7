import type { AnyPrompt } from "./define.js";

export const draftCustomerReply: AnyPrompt | undefined = undefined;
