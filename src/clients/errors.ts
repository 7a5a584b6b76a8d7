import { redact } from "../text/redact.js";

/**
 * Every failure a tool can meet is one of these. The tool wrapper turns them into isError
 * results; `hint` says what the user or assistant should do next.
 */
export abstract class PancakeError extends Error {
  abstract readonly kind: string;
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(redact(message));
    this.hint = hint === undefined ? undefined : redact(hint);
    this.name = new.target.name;
  }
}

/** The caller's arguments are wrong; nothing was sent upstream. */
export class InputError extends PancakeError {
  readonly kind = "invalid_input";
  readonly field: string | undefined;
  /** What is wrong, without the field name (the message leads with it). */
  readonly reason: string;
  constructor(field: string | undefined, reason: string, hint?: string) {
    super(field ? `${field}: ${reason}` : reason, hint);
    this.field = field;
    this.reason = reason;
  }
}

/** A setting (credential, page token) is missing; names the variable to set. */
export class ConfigError extends PancakeError {
  readonly kind = "not_configured";
}

/** A record the caller named does not exist (found out locally or from a 404). */
export class NotFoundError extends PancakeError {
  readonly kind = "not_found";
}

/** Which upstream answered: the same error code means a different credential on each. */
export type Api = "messaging" | "pos";

export interface UpstreamErrorInit {
  op: string;
  api?: Api;
  status?: number;
  code?: string | number;
  upstreamMessage?: string;
  subcode?: string | number;
  permission?: string;
  retryAfterMs?: number;
  hint?: string;
}

/** The upstream answered with an error: HTTP 4xx/5xx, or HTTP 200 with `success: false`. */
export class UpstreamError extends PancakeError {
  readonly kind = "upstream_error";
  readonly op: string;
  readonly api: Api | undefined;
  readonly status: number | undefined;
  readonly code: string | number | undefined;
  readonly subcode: string | number | undefined;
  readonly upstreamMessage: string | undefined;
  readonly permission: string | undefined;
  readonly retryAfterMs: number | undefined;
  constructor(init: UpstreamErrorInit) {
    const parts = [`${init.op} failed`];
    if (init.status !== undefined) parts.push(`HTTP ${init.status}`);
    if (init.code !== undefined) parts.push(`code ${init.code}`);
    if (init.subcode !== undefined) parts.push(`subcode ${init.subcode}`);
    let message = parts.join(", ");
    if (init.upstreamMessage) message += `: ${init.upstreamMessage}`;
    if (init.permission) message += ` (permission: ${init.permission})`;
    super(message, init.hint ?? hintFor(init));
    this.op = init.op;
    this.api = init.api;
    this.status = init.status;
    this.code = init.code;
    this.subcode = init.subcode;
    this.upstreamMessage = init.upstreamMessage === undefined ? undefined : redact(init.upstreamMessage);
    this.permission = init.permission;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * The body was not what the operation promises: not JSON (an HTML error page, a cut body), empty,
 * or JSON of another shape. `what` says which, e.g. "an empty answer".
 */
export class BadResponseError extends PancakeError {
  readonly kind = "bad_response";
  readonly status: number;
  constructor(op: string, status: number, what: string) {
    super(
      `${op} failed: HTTP ${status} with ${what}`,
      "The upstream service is having trouble; try again in a moment.",
    );
    this.status = status;
  }
}

/** The upstream answered with more than the configured cap: abandoned, and never retried (it would be as large again). */
export class ResponseTooLargeError extends PancakeError {
  readonly kind = "response_too_large";
  constructor(
    readonly maxBytes: number,
    op = "request",
  ) {
    super(
      `${op} failed: the answer is larger than ${maxBytes} bytes, so it was not read`,
      "Ask for less (a smaller limit, a narrower date range or filter); PANCAKE_MAX_RESPONSE_BYTES raises the cap.",
    );
  }
  /** The same error naming the operation that met it. */
  at(op: string): ResponseTooLargeError {
    return new ResponseTooLargeError(this.maxBytes, op);
  }
}

/** No answer in time, or the connection failed. */
export class NetworkError extends PancakeError {
  readonly kind: "timeout" | "network";
  constructor(op: string, kind: "timeout" | "network", detail: string, hint?: string) {
    super(`${op} failed: ${kind === "timeout" ? "no answer in time" : "connection failed"} (${detail})`, hint);
    this.kind = kind;
  }
}

/** A read that did not answer within the call's time budget (tools/define.ts): stopped, nothing changed. */
export class TimeBudgetError extends PancakeError {
  readonly kind = "time_budget";
  constructor(tool: string, seconds: number) {
    super(
      `${tool} did not finish within the ${seconds} s a call may take (assistants' clients stop waiting at 60 s), so it was stopped; nothing was changed`,
      "Ask for less (a shorter since/until, one page or shop, fewer filters or groups), or ask again in a minute: what the server was reading into its shop index goes on.",
    );
  }
}

/** What a wait or request ends with when the MCP client cancels the call it serves. */
export const cancelledByClient = () => new NetworkError("request", "network", "cancelled by the client");

/** A write was sent but its answer was lost: it may or may not have taken effect. */
export class OutcomeUnknownError extends PancakeError {
  readonly kind = "outcome_unknown";
  constructor(op: string, detail: string) {
    super(
      `${op}: outcome unknown, the request was sent but its answer was lost (${detail})`,
      "Check whether the change happened (read it back) before retrying; writes are never retried automatically.",
    );
  }
}

const POS_KEY = "check PANCAKE_POS_API_KEY (shop settings, API KEY frame)";
const INBOX_TOKENS = "check PANCAKE_ACCESS_TOKEN, or the page's token in PANCAKE_PAGE_ACCESS_TOKENS";

/** What to do about a refused credential, naming the setting of the API that refused it. */
function credentialHint(api: Api | undefined, code: number | undefined, status: number | undefined): string | undefined {
  if (code === 101) {
    if (api === "pos") return "The request carried no api_key: set PANCAKE_POS_API_KEY.";
    if (api === "messaging") return "The request carried no access token: set PANCAKE_ACCESS_TOKEN, or the page's token in PANCAKE_PAGE_ACCESS_TOKENS.";
    return "The request carried no credential: set the variable named in the tool's description.";
  }
  // 105 is the key itself (a wrong shop id gives 404): reported by a public POS client that replays
  // production traces (/work/shared/reference/README.md), where a space or newline pasted with the
  // key was enough. Keys are trimmed at start-up (config.ts), so it is the key's own characters.
  if (code === 105 && api !== "messaging") return `The POS api key is rejected: ${POS_KEY}; copy the key again, whole.`;
  if (code === 102 || code === 105 || status === 401) {
    if (api === "pos") return `The POS api_key was refused: ${POS_KEY}.`;
    if (code === 102) return "The page access token is invalid: set PANCAKE_PAGE_ACCESS_TOKENS or check that PANCAKE_ACCESS_TOKEN can read the page list.";
    if (status === 401) return "The user access token is expired or invalid: create a new one in the account settings and set PANCAKE_ACCESS_TOKEN.";
    if (api === "messaging") return `The access token was refused: ${INBOX_TOKENS}.`;
    return `The credential was refused: ${POS_KEY}, or for the inbox ${INBOX_TOKENS}.`;
  }
  return undefined;
}

/** The platform's refusal of a message past its 24-hour window (reference README: e_code 10 / e_subcode 2018278). */
export function isOutsideWindow(e: { code?: string | number | undefined; subcode?: string | number | undefined }): boolean {
  return Number(e.subcode) === 2018278 || Number(e.code) === 10;
}

function hintFor(init: UpstreamErrorInit): string | undefined {
  const { status, code, subcode } = init;
  if (status === 429 || code === 106 || subcode === 3252001)
    return "Rate limited: wait a few seconds and try again.";
  // No tool sends a message tag, so none is offered (send_inbox_message names the comment and phone it found).
  if (isOutsideWindow(init))
    return "The customer last wrote more than 24 hours ago, so the platform refuses the message; nothing was sent. Answer a comment of theirs from the last 7 days with send_private_reply, call the phone on record, or wait for them to write again.";
  const credential = credentialHint(init.api, typeof code === "number" ? code : Number(code) || undefined, status);
  if (credential) return credential;
  if (status === 403) return "The credential lacks the permission for this operation: grant it to the api key or user, or use another account.";
  if (status === 404) return "Check the id: the record does not exist or belongs to another page or shop.";
  if (status !== undefined && status >= 500) return "The upstream service is failing; try again in a moment.";
  if (status === 400) return "The upstream rejected the parameters; check them against the tool's schema.";
  return undefined;
}

/** An error's message with its next step, for text that reports a failure without failing. */
export function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof PancakeError && error.hint ? `${message}\nNext step: ${error.hint}` : message;
}
