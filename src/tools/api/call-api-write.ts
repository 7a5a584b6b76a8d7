import { z } from "zod";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish } from "../inputs.js";
import { API_RESULT_MAX, callOperation, callOutput, operationInput, paramsInput } from "./call.js";

/** A value as the dialog shows it: JSON, cut to a few lines. */
const brief = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
};

export const callApiWrite = defineTool({
  name: "call_api_write",
  title: "Call an API write",
  description:
    "Call a write by id (find_api_operations); parameters and body checked before sending; never retried.",
  toolset: "api",
  annotations: OVERWRITE,
  input: z.object({ operation: operationInput, params: paramsInput, body: jsonish(z.unknown()).optional().describe("JSON body") }),
  output: callOutput,
  maxResultChars: API_RESULT_MAX,
  // Any documented write can come through here, so the user sees exactly what goes before it does.
  confirm: (input) => ({
    action: "Gửi thao tác ghi này tới hệ thống?",
    details: [
      ["Thao tác", input.operation],
      ["Tham số", input.params === undefined ? undefined : brief(input.params)],
      ["Nội dung", input.body === undefined ? undefined : brief(input.body)],
    ],
  }),
  handler: (input, ctx) => callOperation(ctx, input, true),
});
