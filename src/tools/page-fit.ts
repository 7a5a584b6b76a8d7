import { z } from "zod";
import type { Config } from "../config.js";
import { compact } from "../format/compact.js";
import { CUT_KEY, scrubbed, withinBudget } from "../outbound.js";

type Shown = { value: Record<string, unknown>; text: string };

/**
 * What fitting reads of a tool (define.ts's ToolDefinition), typed here so that runTool's module,
 * which fits every answer, and this one do not import each other.
 */
interface Fitted<C> {
  input: z.ZodObject<z.ZodRawShape>;
  output: z.ZodObject<z.ZodRawShape>;
  maxResultChars?: number;
  handler(input: Record<PropertyKey, unknown>, ctx: C): Promise<unknown>;
  uncursored?(input: Record<PropertyKey, unknown>): boolean;
}

/** What fitting reads of a call's context (define.ts's ToolContext). */
interface FitContext {
  config: Pick<Config, "maxResultChars">;
  progress(done: number, total?: number, message?: string): Promise<void>;
}

/**
 * A tool's answer as it is sent: secrets redacted, within the call's budget (the configured one,
 * or the tool's own when smaller). One JSON pass when it fits, as nearly every answer does.
 */
export async function fitResult<C extends FitContext>(tool: Fitted<C>, input: Record<PropertyKey, unknown>, answer: Record<string, unknown>, ctx: C): Promise<Shown> {
  const budget = Math.min(tool.maxResultChars ?? Number.POSITIVE_INFINITY, ctx.config.maxResultChars);
  const shown = scrubbed(answer);
  if (shown.text.length <= budget) return shown;
  const key = rowsKey(tool);
  if (!key) return withinBudget(shown.value, budget);
  // Progress already reported stands: a client is told progress only ever increases.
  const quiet = { ...ctx, progress: async () => {} };
  // Without a limit the tool answered its default number of rows: as many as it did.
  const asked = typeof input.limit === "number" ? input.limit : ((shown.value[key] as unknown[] | undefined)?.length ?? 0);
  // An answer no cursor continues is a slice of what the call read: fewer of the same rows are cut
  // here. Any other is asked again, so that its next_cursor points after the last row returned.
  const slice = tool.uncursored?.(input) === true;
  const page = { key, budget, asked, slice, advice: adviceOf(tool) };
  if (slice) return fitPage(shown, page, async (limit) => ({ ...shown.value, [key]: (shown.value[key] as unknown[]).slice(0, limit) }));
  return fitPage(shown, page, (limit) => tool.handler({ ...input, limit }, quiet));
}

/** Characters kept free for a next_cursor longer than the one it replaces (search_orders' names the ids read at its edge second). */
const CURSOR_SLACK = 200;

const keys = new WeakMap<object, string | null>();

/**
 * The list a paged tool answers in: the first list of its output (optional or not), when the
 * output has a next_cursor and the input a `limit` to ask for fewer rows with. Undefined for any
 * other tool.
 */
export function rowsKey(tool: Pick<Fitted<never>, "input" | "output">): string | undefined {
  let key = keys.get(tool);
  if (key === undefined) {
    const shape = tool.output.shape;
    const paged = "next_cursor" in shape && "limit" in tool.input.shape;
    key = (paged && Object.keys(shape).find((name) => isList(shape[name]))) || null;
    keys.set(tool, key);
  }
  return key ?? undefined;
}

const isList = (schema: unknown): boolean =>
  schema instanceof z.ZodOptional ? isList(schema.unwrap()) : schema instanceof z.ZodArray;

/** What makes rows smaller, where the tool offers it. */
function adviceOf(tool: Pick<Fitted<never>, "input">): string {
  const ways = ["fields" in tool.input.shape && "fewer fields", "detail" in tool.input.shape && 'detail "compact"'].filter(Boolean);
  return ways.length ? ` For more rows a call, ask for ${ways.join(" or ")}.` : "";
}

interface Page {
  key: string;
  budget: number;
  /** The limit the call asked for. */
  asked: number;
  /** No cursor continues the answer: the rows left out are not shown anywhere. */
  slice: boolean;
  advice: string;
}

/**
 * A page of rows over its result budget, answered again with as many whole rows as fit. Cut as
 * any other result is, it lost its last rows while its next_cursor still pointed past them:
 * search_orders with large `fields` showed 94 of 100 orders and the other 6 were never seen
 * (issue 21). The tool's own paging knows where every row ends (pages, offsets, time windows,
 * message positions), so it is asked for fewer rows rather than taught a second way to point
 * inside its page: its next_cursor then starts at the first row not returned. Only a page over
 * the budget pays (one more run, usually one more upstream page); a lone row over it is cut inside.
 * An answer with no cursor (page.slice) gets its fewer rows from `answer` without a run.
 */
async function fitPage(first: Shown, page: Page, answer: (limit: number) => Promise<unknown>): Promise<Shown> {
  let shown = first;
  let limit = page.asked;
  for (let tries = 0; ; tries++) {
    const rows = shown.value[page.key];
    if (!Array.isArray(rows)) return withinBudget(shown.value, page.budget);
    const noted = tries === 0 ? shown : withNote(shown.value, shortened(rows.length, page, shown.value));
    if (noted.text.length <= page.budget) return noted;
    if (rows.length <= 1) return cutInside(shown.value, page);
    // The estimate from this answer's row sizes, then halving if the next answer is larger still.
    const room = page.budget - noteSize(shortened(page.asked, page, shown.value)) - CURSOR_SLACK;
    const fewer = Math.max(1, Math.min(rowsThatFit(shown, rows, room), tries === 0 ? rows.length - 1 : Math.floor(rows.length / 2)));
    // Only a tool that answers more rows than its limit asks for gets here: cut like any result.
    if (fewer >= limit) return withinBudget(shown.value, page.budget);
    limit = fewer;
    shown = scrubbed(compact((await answer(limit)) as Record<string, unknown>));
  }
}

/** How many leading rows fit in `room` beside the rest of the answer. */
function rowsThatFit(shown: Shown, rows: unknown[], room: number): number {
  const sizes = rows.map((row) => JSON.stringify(row).length + 1);
  let left = room - (shown.text.length - sizes.reduce((sum, size) => sum + size, 1));
  let n = 0;
  while (n < sizes.length && left >= sizes[n]!) left -= sizes[n++]!;
  return n;
}

const more = (value: Record<string, unknown>) => (value.next_cursor ? "; next_cursor continues with the next row" : "");

function shortened(shown: number, page: Page, value: Record<string, unknown>): string {
  const rest = page.slice ? "; the others are left out (no cursor continues this answer)" : more(value);
  return `${shown} of the ${page.asked} rows asked for fit the ${page.budget}-character budget for one result${rest}.${page.advice}`;
}

/** Characters a note adds to a result: `,"result_cut":"…"`. */
const noteSize = (note: string) => JSON.stringify(note).length + CUT_KEY.length + 4;

function withNote(value: Record<string, unknown>, note: string): Shown {
  const noted = { ...value, [CUT_KEY]: note };
  return { value: noted, text: JSON.stringify(noted) };
}

/**
 * One row over the budget on its own (a broken record with thousands of entries): that row cut
 * inside, everything beside it (next_cursor first of all) kept as it is.
 */
function cutInside(value: Record<string, unknown>, page: Page): Shown {
  const [row] = value[page.key] as unknown[];
  const say = (what: string) => `the row shown is over the ${page.budget}-character budget for one result on its own: ${what}${more(value)}.`;
  // The note's own room: at most ten cuts are named, each by a path and two numbers.
  const room = page.budget - JSON.stringify({ ...value, [page.key]: [] }).length - noteSize(say("x".repeat(800)));
  if (row !== null && typeof row === "object" && room > 0) {
    const cut = withinBudget(row as Record<string, unknown>, room, (what) => what);
    const { [CUT_KEY]: what, ...kept } = cut.value;
    const noted = withNote({ ...value, [page.key]: [kept] }, say(String(what)));
    if (noted.text.length <= page.budget) return noted;
  }
  return withinBudget(value, page.budget);
}
