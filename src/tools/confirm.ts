import { createHash } from "node:crypto";
import { sanitizeLine, sanitizeName } from "../text/sanitize.js";

/**
 * The user's yes before a tool reaches a customer or moves money. A tool declares a `confirm` hook
 * (what it is about to do: who, what, how much); runTool asks through the client (MCP elicitation)
 * when the context can ask, and sends nothing upstream unless the user accepts.
 */

/** What a tool asks the user to approve. */
export interface Confirmation {
  /** One line: what happens on accept. */
  action: string;
  /** Who, what, how much, in this order; empty values are left out. */
  details: [label: string, value: string | number | undefined][];
  /** Text the user may edit before it goes: the input field that holds it. */
  editable?: { field: string; label: string };
}

/** The form shown to the user: at most the editable text (a flat object, as elicitation wants). */
export interface ConfirmForm {
  type: "object";
  properties: Record<string, { type: "string"; title: string; default: string; maxLength?: number }>;
  required?: string[];
}

export type UserAnswer =
  | { action: "accept"; content?: Record<string, unknown> }
  | { action: "decline" | "cancel" }
  /** The question could not be asked or was not answered in time. */
  | { action: "unavailable"; reason: string };

/**
 * Asks the user (elicitation/create). Present on a tool context only when this call must ask.
 * `subject` fingerprints what the answer approves (the call's arguments): a 2026-07-28 answer,
 * which comes back with a later call, counts only for a call with the same one.
 */
export type AskUser = (message: string, form: ConfirmForm, subject: string) => Promise<UserAnswer>;

/**
 * Thrown by an AskUser that cannot wait for the answer (MCP 2026-07-28): the call ends with the
 * question, and the client calls again with the user's answer. runTool lets it through untouched;
 * nothing was sent upstream before it.
 */
export class AskLater extends Error {
  constructor(
    readonly question: string,
    readonly form: ConfirmForm,
    readonly subject: string,
  ) {
    super("the user's answer comes with the next call");
  }
}

/** The longest editable text (the send tools' limit). */
const MAX_TEXT = 2000;

/**
 * The message shown to the user: the action, then one line per detail. Every value passes the
 * sanitizer and stays on its line: a value holds outside text (a customer's name, an address from
 * a chat), and a line break or a bidi control in it could otherwise write lines of its own
 * ("Điện thoại: …") into what the user approves.
 */
export function confirmMessage(c: Confirmation): string {
  const lines = c.details.flatMap(([label, v]) => {
    const value = sanitizeLine(v, MAX_TEXT);
    return value === undefined ? [] : [`${label}: ${value}`];
  });
  return [sanitizeLine(c.action, MAX_TEXT) ?? "", ...lines].join("\n");
}

/** A name from outside (customer, page) fit to show in the dialog. */
export const shown = (value: unknown): string | undefined => sanitizeName(value);

const NOT_SENT: Record<Exclude<UserAnswer["action"], "accept">, string> = {
  decline: "The user declined in the confirmation dialog",
  cancel: "The user dismissed the confirmation dialog",
  unavailable: "The user could not be asked",
};

export type Approval = { go: true; edits?: Record<string, unknown> } | { go: false; result: Record<string, unknown> };

/**
 * Asks before a write. Accept: go on, with the user's edit of the text if any. Anything else:
 * a normal result that says nothing was sent and why, so the model reports it instead of retrying.
 */
export async function approve(confirmation: Confirmation, input: Record<string, unknown>, ask: AskUser): Promise<Approval> {
  const { editable } = confirmation;
  const text = editable ? input[editable.field] : undefined;
  const form: ConfirmForm = { type: "object", properties: {} };
  if (editable && typeof text === "string" && text !== "") {
    form.properties[editable.field] = { type: "string", title: editable.label, default: text, maxLength: MAX_TEXT };
    form.required = [editable.field];
  }
  const answer = await ask(confirmMessage(confirmation), form, subjectOf(input, editable?.field));
  if (answer.action === "accept") {
    const edited = editable ? answer.content?.[editable.field] : undefined;
    return typeof edited === "string" && edited !== text ? { go: true, edits: { [editable!.field]: edited } } : { go: true };
  }
  const why = answer.action === "unavailable" ? `${NOT_SENT.unavailable}: ${answer.reason}` : NOT_SENT[answer.action];
  return {
    go: false,
    result: {
      sent: false,
      answer: answer.action,
      note: `${why}; nothing was sent or changed. Tell the user; call again only if they ask for it.`,
    },
  };
}

/**
 * What an answer approves: the parsed arguments (page and shop as resolved, so a yes for one shop
 * is no yes for another whose dialog reads the same), less the text the user may edit in the dialog.
 */
function subjectOf(input: Record<string, unknown>, editable: string | undefined): string {
  const { [editable ?? ""]: _edited, ...rest } = input;
  return createHash("sha256").update(canonical(rest)).digest("base64url").slice(0, 22);
}

/** JSON with every object's keys sorted: the same arguments give the same text whatever their order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Map || v instanceof Set) return [...v];
    if (!v || typeof v !== "object" || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }) ?? "";

/** Order or return lines as the user gave them: "Áo sơ mi (Trắng, M) × 2". */
export function linesText(items: readonly { variation_id?: string; product?: string; variant?: string; quantity: number }[]): string {
  return items.map((it) => `${it.product ?? `#${it.variation_id}`}${it.variant ? ` (${it.variant})` : ""} × ${it.quantity}`).join("; ");
}
