import { z } from "zod";
import { defineTool, READ } from "../define.js";
import { describeOperation, operationById, searchOperations } from "./operations.js";

export const findApiOperations = defineTool({
  name: "find_api_operations",
  title: "Find API operations",
  description:
    'Find any documented POS or inbox operation by keywords (e.g. "supplier") or id: its id and parameters for call_api_read/write.',
  toolset: "api",
  annotations: READ,
  input: z.object({
    query: z.string().max(200).describe("Keywords or id"),
    api: z.enum(["pos", "messaging"]).optional().describe("Only this API"),
    limit: z.number().int().min(1).max(20).default(5).describe("Max rows"),
  }),
  output: z.object({ operations: z.array(z.looseObject({ id: z.string(), summary: z.string() })) }),
  async handler(input) {
    const exact = await operationById(input.query);
    if (exact) return { operations: [describeOperation(exact, 8000)] };
    const found = await searchOperations(input.query, input.limit, input.api);
    return { operations: found.map((op) => describeOperation(op, 1200)) };
  },
});
