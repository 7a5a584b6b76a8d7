import { z } from "zod";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish } from "../inputs.js";
import { callOperation, callOutput, operationInput, paramsInput } from "./call.js";

export const callApiWrite = defineTool({
  name: "call_api_write",
  title: "Call an API write",
  description:
    "Call a write by id (find_api_operations); parameters and body checked before sending; never retried.",
  toolset: "api",
  annotations: OVERWRITE,
  input: z.object({ operation: operationInput, params: paramsInput, body: jsonish(z.unknown()).optional().describe("JSON body") }),
  output: callOutput,
  handler: (input, ctx) => callOperation(ctx, input, true),
});
