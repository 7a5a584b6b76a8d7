import { z } from "zod";
import { failureText, InputError, NotFoundError } from "../clients/errors.js";
import { INVALID_PARAMS, RpcError } from "../rpc-error.js";

/**
 * The JSON-RPC error for a failed prompts/get. An argument the prompt cannot use (a bad date, a
 * missing choice, a conversation or customer that does not exist) is the caller's to fix: -32602
 * Invalid params with what to change, as the spec asks. Anything else stays an internal error.
 */
export function promptError(name: string, error: unknown): unknown {
  if (error instanceof InputError || error instanceof NotFoundError) {
    return new RpcError(INVALID_PARAMS, `Invalid arguments for prompt ${name}: ${failureText(error)}`);
  }
  if (error instanceof z.ZodError) {
    const issues = error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");
    return new RpcError(INVALID_PARAMS, `Invalid arguments for prompt ${name}: ${issues}`);
  }
  return error;
}
