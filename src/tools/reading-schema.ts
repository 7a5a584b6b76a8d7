import { z } from "zod";

/** How far a read of the shop index under way has got (src/format/reading.ts), as answers show it. */
export const readingSchema = z.object({
  read: z.number(),
  of_about: z.number().optional(),
  back_to: z.string().optional(),
  ask_again_in_s: z.number().optional(),
  stopped: z.string().optional(),
});
