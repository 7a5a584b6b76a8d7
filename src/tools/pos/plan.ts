import type { ToolContext } from "../define.js";

/**
 * What a write resolves before it runs (names to ids, lines to variations, the address to
 * places), done once for its confirmation and its handler alike: the user approves what will be
 * written, named as the shop names it, and nothing is found wrong after their yes. runTool hands
 * the confirm hook and then the handler the same input object (a new one when the user edited
 * it), so the plan is keyed on it.
 */
export function planned<I extends object, P>(make: (input: I, ctx: ToolContext) => Promise<P>): (input: I, ctx: ToolContext) => Promise<P> {
  const plans = new WeakMap<I, Promise<P>>();
  return (input, ctx) => {
    let plan = plans.get(input);
    if (!plan) {
      plan = make(input, ctx);
      plans.set(input, plan);
    }
    return plan;
  };
}
