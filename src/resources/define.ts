import type { ToolContext } from "../tools/define.js";

export type ResourceContext = Omit<ToolContext, "progress">;

/** A read-only JSON resource; `uri` may be a template with {variables}. */
export interface ResourceDefinition {
  name: string;
  title: string;
  description: string;
  /** `pancake://pages` or a template such as `pancake://pages/{page_id}/tags`. */
  uri: string;
  /** Argument completion per template variable: candidate values for what was typed so far. */
  complete?: Record<string, (typed: string, ctx: ResourceContext, args: Record<string, string>) => Promise<string[]>>;
  /** For templates: the concrete resources to offer in resources/list. */
  list?: (ctx: ResourceContext) => Promise<{ uri: string; name: string; title?: string }[]>;
  read(params: Record<string, string>, ctx: ResourceContext): Promise<unknown>;
}

export function defineResource(def: ResourceDefinition): ResourceDefinition {
  return def;
}
