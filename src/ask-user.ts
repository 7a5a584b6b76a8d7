import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ElicitResultSchema, ErrorCode, McpError, type ServerNotification, type ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AskUser, ConfirmMode } from "./tools/confirm.js";

/** A person answers a confirmation: give them time, but not forever (then nothing is sent). */
export const CONFIRM_TIMEOUT_MS = 10 * 60_000;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * How a tool call asks the user (MCP elicitation, form mode), or undefined when it must not ask.
 * auto: ask when the client declared elicitation. always: ask, and where the client cannot
 * answer, the write is not made. Under stateless HTTP a per-request server never saw the client's
 * initialize, so its capabilities are unknown: auto does not ask there (today's behaviour) and
 * always asks on the request's own SSE stream (transports/answers.ts routes the answer back).
 */
export function userAsker(mode: ConfirmMode, server: Server, extra: Extra): AskUser | undefined {
  if (mode === "never") return undefined;
  const caps = server.getClientCapabilities();
  const elicitation = caps?.elicitation;
  // An empty elicitation capability means form mode (the form/url split came later).
  const canAsk = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  if (!canAsk && mode === "auto") return undefined;
  if (!canAsk && caps !== undefined) {
    return async () => ({ action: "unavailable", reason: "PANCAKE_CONFIRM_WRITES=always, and this client cannot show a confirmation (no elicitation capability)" });
  }
  return async (message, form) => {
    try {
      const result = await extra.sendRequest(
        { method: "elicitation/create", params: { message, requestedSchema: form } },
        ElicitResultSchema,
        { timeout: CONFIRM_TIMEOUT_MS },
      );
      return result.action === "accept" ? { action: "accept", content: result.content } : { action: result.action };
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        return { action: "unavailable", reason: `no answer within ${CONFIRM_TIMEOUT_MS / 60_000} minutes` };
      }
      return { action: "unavailable", reason: `the client could not ask (${error instanceof Error ? error.message : String(error)})` };
    }
  };
}
