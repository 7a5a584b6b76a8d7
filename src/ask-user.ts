import type { ConfirmMode } from "./config.js";
import { type AskUser, AskLater, type ConfirmForm, type UserAnswer } from "./tools/confirm.js";

/** A person answers a confirmation: give them time, but not forever (then nothing is sent). */
export const CONFIRM_TIMEOUT_MS = 10 * 60_000;

/** A 2025-era client's answer to elicitation/create, or no answer in time. */
export type PushedAnswer = { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> } | { action: "timeout" };

/**
 * What the protocol layer (server.ts) knows of the client for one tool call. The two eras ask
 * differently: a 2025-era client is sent elicitation/create and the call waits for the answer; a
 * 2026-07-28 client is answered with the question (an input-required result) and calls again with
 * the user's answer, which `answered` reads.
 */
export interface AskChannel {
  /**
   * The capabilities the client declared: at initialize (2025 era) or on this very request
   * (2026-07-28). Undefined when this server cannot know them: a stateless 2025-era HTTP request
   * reaches a server that never saw the client's initialize.
   */
  capabilities: { elicitation?: { form?: object; url?: object } } | undefined;
  /** 2025 era: asks on the request's own stream and waits (at most CONFIRM_TIMEOUT_MS). */
  push?(message: string, form: ConfirmForm): Promise<PushedAnswer>;
  /**
   * 2026-07-28: the user's answer this call carries, when it answers this very question about this
   * very subject and has not been acted on before.
   */
  answered?(message: string, form: ConfirmForm, subject: string): Promise<UserAnswer | undefined>;
}

/**
 * How a tool call asks the user (MCP elicitation, form mode), or undefined when it must not ask.
 * auto: ask when the client declared elicitation. always: ask, and where the client cannot
 * answer, the write is not made. Under stateless HTTP a 2025-era client's capabilities are
 * unknown: auto does not ask there (the behaviour before 2026-07-28) and always asks on the
 * request's own SSE stream (transports/answers.ts routes the answer back). A 2026-07-28 client
 * states its capabilities on every request, so auto asks it over HTTP too.
 */
export function userAsker(mode: ConfirmMode, channel: AskChannel): AskUser | undefined {
  if (mode === "never") return undefined;
  const { capabilities, push, answered } = channel;
  const elicitation = capabilities?.elicitation;
  // An empty elicitation capability means form mode (the form/url split came later).
  const canAsk = elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  if (!canAsk && mode === "auto") return undefined;
  if (!canAsk && capabilities !== undefined) {
    return async () => ({ action: "unavailable", reason: "PANCAKE_CONFIRM_WRITES=always, and this client cannot show a confirmation (no elicitation capability)" });
  }
  if (answered) {
    return async (message, form, subject) => {
      const answer = await answered(message, form, subject);
      if (!answer) throw new AskLater(message, form, subject);
      return answer;
    };
  }
  if (!push) return undefined;
  return async (message, form) => {
    try {
      const result = await push(message, form);
      if (result.action === "timeout") return { action: "unavailable", reason: `no answer within ${CONFIRM_TIMEOUT_MS / 60_000} minutes` };
      return result.action === "accept" ? { action: "accept", content: result.content } : { action: result.action };
    } catch (error) {
      return { action: "unavailable", reason: `the client could not ask (${error instanceof Error ? error.message : String(error)})` };
    }
  };
}
