import type { z } from "zod";
import type { ResourceContext } from "../resources/define.js";

export interface PromptMessage {
  role: "user" | "assistant";
  text: string;
}

/** Prompt arguments arrive as strings (MCP prompts/get); the schema validates and converts them. */
export interface PromptDefinition<A extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  args: A;
  /** Candidate values per argument for what was typed so far; `args` holds the ones already chosen. */
  complete?: Partial<
    Record<keyof A & string, (typed: string, ctx: ResourceContext, args: Record<string, string>) => Promise<string[]>>
  >;
  build(args: z.output<z.ZodObject<A>>, ctx: ResourceContext): Promise<PromptMessage[]>;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds prompts of every argument shape
export type AnyPrompt = PromptDefinition<any>;

export function definePrompt<A extends z.ZodRawShape>(def: PromptDefinition<A>): PromptDefinition<A> {
  return def;
}
