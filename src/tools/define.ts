import type { z } from "zod";
import type { MessagingClient } from "../clients/messaging.js";
import type { PosClient } from "../clients/pos.js";
import { rebound } from "../clients/call-signal.js";
import { onAbort } from "../clients/on-abort.js";
import { InputError, PancakeError, TimeBudgetError } from "../clients/errors.js";
import { redact } from "../text/redact.js";
import type { Config } from "../config.js";
import { compact } from "../format/compact.js";
import type { Logger } from "../log.js";
import { AskLater, type AskUser, approve, type Confirmation } from "./confirm.js";
import { CURSOR_KEY } from "./cursor.js";
import { capFullRows } from "./inputs.js";
import { fitResult, rowsKey } from "./page-fit.js";
import { issuesMessage, listsFromSingles, unknownKeysMessage } from "./input-errors.js";
import { resolvePageArgs } from "./pages/page-refs.js";
import type { ToolsetName } from "../toolsets.js";
import type { ShopIndex } from "../shop-index/service.js";

/** All four hints are required: clients decide on confirmation prompts from them. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A read of upstream data: safe, repeatable. */
export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
/** A write that adds something (a message, an order): never retried, repeating it repeats the effect. */
export const CREATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
/** A write that overwrites or removes state. */
export const OVERWRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

export interface ToolContext {
  config: Config;
  messaging: MessagingClient;
  pos: PosClient;
  logger: Logger;
  signal: AbortSignal;
  /** Reports progress to the client when it asked for it (a no-op otherwise). */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** Set when this call must ask the user before a write that declares `confirm` (tools/confirm.ts). */
  askUser?: AskUser;
  /** The tenant's cursor key (src/cursor-key.ts); unset, the process's own. */
  cursorKey?: Buffer;
  /** The tenant's shop index (src/shop-index); unset with PANCAKE_INDEX=off. */
  index?: ShopIndex;
  /**
   * When the call answers at the latest (ms): its time budget (PANCAKE_CALL_BUDGET_SECONDS) from
   * when it came. Reads that would outlast it stop and answer with what they have; infinite where
   * nobody waits (a resource listing).
   */
  deadline: number;
  /** Time kept at the end of the budget to make the answer from what was read (ms); ANSWER_MS unless the tool's answers took longer. */
  answerMs?: number;
}

/** Time kept at the end of a call's budget to make its answer from what was read, at least. */
const ANSWER_MS = 2_500;
/**
 * How long past the time its reads stopped each tool's latest call that overran it took to answer
 * (ms): a big shop's answer (a pass over hundreds of thousands of rows held) takes longer to make
 * than ANSWER_MS, and the tool's next calls stop reading that much earlier, with a margin for the
 * rows read meanwhile, and half the budget at most.
 */
const answering = new Map<string, number>();
const ANSWER_MARGIN = 1.5;

/** When a read inside the call stops to leave its answer time to be made (ms). */
export const readBy = (ctx: Pick<ToolContext, "deadline" | "answerMs">): number => ctx.deadline - (ctx.answerMs ?? ANSWER_MS);

/** Counts tool calls by outcome and time (src/metrics.ts sets it when /metrics is on). */
export const toolEvents: { observe?: (tool: string, outcome: string, ms: number) => void } = {};

export type ObjectSchema = z.ZodObject<z.ZodRawShape>;

export interface ToolDefinition<I extends ObjectSchema = ObjectSchema, O extends ObjectSchema = ObjectSchema> {
  /** snake_case, public contract. */
  name: string;
  title: string;
  /** What it does, when to use it, one example. */
  description: string;
  /** `session`: the server's own tools (enable_toolset), outside every toolset. */
  toolset: ToolsetName | "session";
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /**
   * Characters of JSON one result may take, when fewer than the configured budget (PANCAKE_MAX_RESULT_CHARS);
   * past it, it is cut with a marker. A paged tool (next_cursor and limit) is cut to whole rows (page-fit.ts).
   */
  maxResultChars?: number;
  handler(input: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
  /**
   * A paged tool's call whose answer has no next_cursor whatever its limit (a search merged from
   * several pages): its rows are a slice of what it read, so a result over the budget keeps the
   * rows that fit rather than running again for fewer (page-fit.ts).
   */
  uncursored?(input: z.output<I>): boolean;
  /**
   * A write that reaches a customer or moves money: what the user is asked to approve first;
   * undefined when this call needs no approval (update_order asks for a batch, not for one order).
   */
  confirm?(input: z.output<I>, ctx: ToolContext): Confirmation | undefined | Promise<Confirmation | undefined>;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds tools of every input/output type
export type AnyTool = ToolDefinition<any, any>;

export function defineTool<I extends ObjectSchema, O extends ObjectSchema>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}

export const isWriteTool = (tool: AnyTool): boolean => !tool.annotations.readOnlyHint;

/** The MCP tool result, kept free of SDK types so the SDK stays behind server.ts. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const FIX_ARGUMENTS = "Call again with the parameters named above fixed; the tool's input schema lists them all.";

/**
 * The arguments as the handler gets them. A key the tool does not know, at any depth, is an error
 * naming the closest valid one, never dropped: a dropped filter answers as if it had been applied.
 */
export function parseInput(tool: AnyTool, args: unknown): unknown {
  const unknown = unknownKeysMessage(tool.input, args ?? {});
  if (unknown) throw new InputError(undefined, unknown, FIX_ARGUMENTS);
  const parsed = tool.input.safeParse(listsFromSingles(tool.input, args ?? {}));
  if (!parsed.success) throw new InputError(undefined, issuesMessage(parsed.error), FIX_ARGUMENTS);
  return capFullRows(tool.input, parsed.data);
}

/** Runs a handler and applies the output contract: compact structured result + same JSON as text. */
export async function runTool(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  if (!toolEvents.observe) return withinBudget(tool, args, ctx);
  const started = performance.now();
  const result = await withinBudget(tool, args, ctx);
  toolEvents.observe(tool.name, result.isError ? /^Error \((\w+)\)/.exec(result.content[0]?.text ?? "")?.[1] ?? "error" : "ok", performance.now() - started);
  return result;
}

/**
 * A call may hold its client this long at most (its budget, when longer). Past its deadline, a
 * call that keeps the process busy (making its answer from what it read: a pass over a big shop's
 * rows on a busy machine) is waited for until then: the budget's timer, set again every LOOK_MS,
 * fires late while it works. One that leaves the process idle for IDLE_MS is waiting on something
 * stuck and answers the budget's error: idle for one look only, it may be between two passes (the
 * timer came due just as one ended: a CI run on a loaded machine once answered a busy call so).
 */
const HOLD_MS = 45_000;
const LOOK_MS = 100;
const IDLE_MS = 500;

/**
 * A read that has not answered by the call's deadline answers then, unless it is making its
 * answer (above), and what it was still reading for the call stops (what it reads into the shop
 * index goes on: indexes read on their own). The tools answer within it themselves, with what
 * they read so far; this is the last word, for a read stuck on something no tool foresaw: never
 * while it answers what it read, however long that takes. A write is never cut off: it may be
 * waiting for the user's approval, and once sent it runs to its answer (clients/http.ts).
 */
async function withinBudget(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  if (isWriteTool(tool) || ctx.deadline === Number.POSITIVE_INFINITY) return runToolOnce(tool, args, ctx);
  // One signal that ends with the client's cancel or at the budget (no AbortSignal.any per call:
  // Node keeps those alive with what their listeners reach).
  const stop = new AbortController();
  if (ctx.signal.aborted) stop.abort();
  const unlink = onAbort(ctx.signal, () => stop.abort());
  const answerMs = Math.min(ctx.config.callBudgetSeconds * 500, Math.max(ANSWER_MS, ANSWER_MARGIN * (answering.get(tool.name) ?? 0)));
  const call: ToolContext = { ...ctx, answerMs, signal: stop.signal, messaging: rebound(ctx.messaging, stop.signal), pos: rebound(ctx.pos, stop.signal) };
  const holdUntil = Math.max(ctx.deadline, ctx.deadline - ctx.config.callBudgetSeconds * 1000 + HOLD_MS);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ToolResult>((resolve) => {
    let idleSince: number | undefined;
    const look = (due: number) => {
      const now = Date.now();
      // A timer on time: the process was idle; a late one: it was busy.
      idleSince = now - due > LOOK_MS ? undefined : (idleSince ?? due);
      if (now < holdUntil && (idleSince === undefined || now - idleSince < IDLE_MS)) {
        timer = setTimeout(() => look(now + LOOK_MS), LOOK_MS);
        return;
      }
      stop.abort();
      resolve(errorResult(tool.name, new TimeBudgetError(tool.name, ctx.config.callBudgetSeconds)));
    };
    timer = setTimeout(() => look(ctx.deadline), Math.max(0, ctx.deadline - Date.now()));
  });
  try {
    return await Promise.race([runToolOnce(tool, args, call), late]);
  } finally {
    clearTimeout(timer);
    unlink();
    const over = Date.now() - readBy(call);
    if (over > 0) answering.set(tool.name, over);
  }
}

async function runToolOnce(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  try {
    const prepare = async (raw: unknown) => {
      const input = (await resolvePageArgs(tool.input, parseInput(tool, raw), ctx.messaging)) as Record<PropertyKey, unknown>;
      if (ctx.cursorKey) input[CURSOR_KEY] = ctx.cursorKey;
      return input;
    };
    let input = await prepare(args);
    let answer: unknown;
    const confirmation = ctx.askUser && (await tool.confirm?.(input, ctx));
    if (confirmation && ctx.askUser) {
      const approval = await approve(confirmation, input as Record<string, unknown>, ctx.askUser);
      if (!approval.go) answer = approval.result;
      else if (approval.edits) input = await prepare({ ...(args as Record<string, unknown>), ...approval.edits });
    }
    answer ??= await tool.handler(input, ctx);
    const { value, text } = await fitResult(tool, input, shortPageSaid(tool, input, compact(answer as Record<string, unknown>)), ctx);
    return { content: [{ type: "text", text }], structuredContent: value };
  } catch (error) {
    if (error instanceof AskLater) throw error;
    return errorResult(tool.name, error, ctx.logger);
  }
}

/**
 * A page of rows shorter than its limit, with more to come, never goes without a word: a tool
 * that says nothing why (the upstream served fewer rows in the pages one call reads) gets this one.
 */
function shortPageSaid(tool: AnyTool, input: Record<PropertyKey, unknown>, answer: Record<string, unknown>): Record<string, unknown> {
  const key = rowsKey(tool);
  const rows = key ? answer[key] : undefined;
  if (!Array.isArray(rows) || !("note" in tool.output.shape) || typeof input.limit !== "number" || rows.length >= input.limit || !answer.next_cursor || answer.note) return answer;
  return { ...answer, note: `${rows.length} of the ${input.limit} rows asked for: the pages read this call held no more; next_cursor continues with the rest.` };
}

export function errorResult(toolName: string, error: unknown, logger?: Logger): ToolResult {
  let text: string;
  if (error instanceof PancakeError) {
    text = `Error (${error.kind}): ${error.message}`;
    if (error.hint) text += `\nNext step: ${error.hint}`;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    logger?.error(`${toolName}: unexpected error: ${error instanceof Error ? (error.stack ?? message) : message}`);
    text = `Error (internal): ${toolName} failed unexpectedly: ${message}\nNext step: try again; if it keeps failing, report it with the tool name and arguments.`;
  }
  return { content: [{ type: "text", text: redact(text) }], isError: true };
}
