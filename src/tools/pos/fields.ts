import { z } from "zod";

// Constraints written as refinements stay out of the published JSON schema (it costs context on
// every turn) while still being checked before any call.

/** A required text: not blank. */
export const nonEmpty = (max: number) => z.string().max(max).refine((s) => s.trim() !== "", "must not be empty");

/** A list with at least one entry. */
export const someOf = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item).max(max).refine((list) => list.length > 0, "needs at least one entry");

/** A nested body object checked against `shape` but published as a plain object (its keys are in the description). */
export const shaped = <T extends z.ZodRawShape>(shape: T) => z.looseObject({}).pipe(z.strictObject(shape));
