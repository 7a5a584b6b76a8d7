import type { AnyPrompt } from "./define.js";

/** Every prompt the server offers. */
export const prompts: AnyPrompt[] = [];
