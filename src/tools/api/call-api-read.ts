import { z } from "zod";
import { defineTool, READ } from "../define.js";
import { API_RESULT_MAX, callOperation, callOutput, operationInput, paramsInput } from "./call.js";

export const callApiRead = defineTool({
  name: "call_api_read",
  title: "Call an API read",
  description:
    'Call a read by id (find_api_operations), parameters checked first. Example: operation "pos GET /shops/{shop_id}/supplier".',
  toolset: "api",
  annotations: READ,
  input: z.object({ operation: operationInput, params: paramsInput }),
  output: callOutput,
  maxResultChars: API_RESULT_MAX,
  handler: (input, ctx) => callOperation(ctx, input, false),
});
