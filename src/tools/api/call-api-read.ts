import { z } from "zod";
import { defineTool, READ } from "../define.js";
import { callOperation, callOutput, operationInput, paramsInput } from "./call.js";

export const callApiRead = defineTool({
  name: "call_api_read",
  title: "Call an API read",
  description:
    'Call a read by id (find_api_operations), parameters checked first. Example: operation "pos GET /shops/{shop_id}/supplier".',
  toolset: "api",
  annotations: READ,
  input: z.object({ operation: operationInput, params: paramsInput }),
  output: callOutput,
  handler: (input, ctx) => callOperation(ctx, input, false),
});
