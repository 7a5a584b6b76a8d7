// The data-scale tier (issues 27, 32 and 34): the questions a seller asks of a whole shop, against the
// demo shop 10, 100 and 200 times over behind 150 ms of upstream latency and the messaging API's
// real limit (5 calls a second a page; the POS documents none), the server as shipped (the built
// CLI over stdio) with its shop index on disk. Each question is first asked as Claude Desktop asks:
// a client that gives up on a call at 60 s, and asks again when an answer says it is not complete
// yet (after the seconds it says), until the answer is exact; the longest call, the calls it took
// and the time from the first ask to the exact answer are what it measures. Then the question is
// asked again at once, again after a minute (past the 5 s refresh interval: a refresh), and after a
// restart on the same folder; every answer must equal the truth the sandbox counts from its raw
// records (data-truth.ts). Then one process asks all of them for its memory and the index folder's
// size, and a fresh one is sent 2,000 and 4,000 made-up address ids for the bound of its address cache.
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Answer } from "./sandbox-process.js";
import type { Figures, OrderKey, Truth, TruthQuestion } from "./data-truth.js";
import { type Row, round, rssMb } from "./measure.js";
import { type ForkedSandbox, forkSandbox } from "./sandbox-fork.js";
import { cpuSeconds, live, quiet, type Server, serverEnv, startServer } from "./stdio-server.js";

export interface DataScaleOptions {
  smoke: boolean;
  /** The built CLI (dist/cli.js). */
  cli: string;
  /** Node flags for every server process (--cpu-prof --cpu-prof-dir=... to profile them). */
  nodeArgs?: string[];
  /** The scales to run (--scales=10,100,200, the default). */
  scales?: number[];
  /** The questions to ask, by id (--questions=awaiting,posts; default: every one). */
  questions?: string[];
  /** How long after the warm repeat a question is asked again (past the index's 5 s refresh interval; default a minute). */
  laterMs?: number;
}

export interface Question {
  id: string;
  label: string;
  tool: "search_orders" | "list_conversations" | "search_products";
  args: Record<string, unknown>;
  truth: () => TruthQuestion;
  /** Why the answer is not the truth (undefined: it is); the groups' comparison unless given. */
  check?: (data: Loose, truth: Truth) => string | undefined;
  /**
   * What bounds its first answer at the platform's pace (5 calls a second a page, the pages read at
   * once): each page's conversations at 60 a call (of `pages` only where given; with `read`, only
   * those the list must give: those of a span), and with `people` the page customers the join to
   * orders reads, 100 a call (src/tools/inbox/page-people.ts).
   */
  floor?: { pages?: string[]; read?: { which: string; truth: () => TruthQuestion }; people?: boolean };
}

const HOUR = 3_600_000;
/** The shop's zone, the server's default (Asia/Ho_Chi_Minh): UTC+7 all year. */
const SHOP_OFFSET = 7 * HOUR;
/** Start of the shop's day `days` from today's, or of its month (UTC ms). */
const shopDay = (days: number) => {
  const d = new Date(Date.now() + SHOP_OFFSET);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days) - SHOP_OFFSET;
};
const shopMonth = (months = 0) => {
  const d = new Date(Date.now() + SHOP_OFFSET);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1) - SHOP_OFFSET;
};
/** Last week, Monday to Sunday in the shop's calendar (src/format/time.ts: a week starts on Monday): [start, end) in UTC ms. */
const lastWeek = (): [number, number] => {
  const monday = shopDay(-((new Date(Date.now() + SHOP_OFFSET).getUTCDay() + 6) % 7));
  return [monday - 7 * 24 * HOUR, monday];
};
const orders = (keys: OrderKey[], since: () => number) => (): TruthQuestion => ({ kind: "orders", keys, sinceMs: since() });

/** Mây Kids, the demo's second page (src/sandbox/messaging/seed.ts). */
const MAY_KIDS = "112233445566778";
const same = (what: string, got: unknown, want: number) => (got === want ? undefined : `${what} ${String(got)} for ${want}`);

export const QUESTIONS: Question[] = [
  {
    id: "province",
    label: "orders this month by province",
    tool: "search_orders",
    args: { group_by: ["province"], since: "this month" },
    truth: orders(["province"], shopMonth),
  },
  {
    id: "carrier-status",
    label: "last 30 days by carrier and status",
    tool: "search_orders",
    args: { group_by: ["carrier", "status"], since: "last 30 days", limit: 100 },
    // "last 30 days": today and the 29 days before it (src/format/time.ts reads it so; checked here by the count).
    truth: orders(["carrier", "status"], () => shopDay(-29)),
  },
  {
    id: "seller",
    label: "revenue per seller this month",
    tool: "search_orders",
    args: { group_by: ["seller"], since: "this month", group_sort: "amount" },
    truth: orders(["seller"], shopMonth),
  },
  {
    id: "awaiting",
    label: "awaiting a reply, all time, per page",
    tool: "list_conversations",
    args: { awaiting_reply: true, group_by: ["page"] },
    truth: () => ({ kind: "awaiting" }),
    floor: {},
  },
  {
    id: "created",
    label: "new conversations yesterday per page",
    tool: "list_conversations",
    args: { group_by: ["page"], time_field: "created", since: "yesterday", until: "yesterday" },
    truth: () => ({ kind: "created", sinceMs: shopDay(-1), untilMs: shopDay(0) }),
  },
  {
    id: "status",
    label: "orders of all time by status",
    tool: "search_orders",
    args: { group_by: ["status"] },
    truth: orders(["status"], () => 0),
  },
  // The merchant's questions (issue 34).
  {
    id: "first-buyers",
    label: "first-time buyers this month",
    tool: "search_orders",
    args: { group_by: ["customer"], since: "this month", buyers: "new", limit: 0 },
    truth: () => ({ kind: "first-buyers", sinceMs: shopMonth() }),
    check: (data, truth) => same("first-time buyers", data.group_count, truth.total),
  },
  {
    id: "unsold",
    label: "variants that sold nothing in the last 30 days",
    tool: "search_products",
    args: { max_sold: 0, sold_since: "last 30 days", limit: 50 },
    truth: () => ({ kind: "unsold", sinceMs: shopDay(-29) }),
    check: (data, truth) => same("unsold variants", data.total, truth.total),
  },
  {
    id: "returns",
    label: "goods back this month and their worth",
    tool: "search_orders",
    args: { statuses: ["returned", "partly_returned"], time_field: "returned", since: "this month", group_by: ["status"] },
    truth: () => ({ kind: "returns", sinceMs: shopMonth() }),
    check: (data, truth) => {
      const groups = (data.groups ?? []) as { status: string; orders: number; returned_amount?: number }[];
      const wrong = Object.entries(truth.groups).flatMap(([status, want]) => {
        const got = groups.find((g) => g.status === status);
        // A partly returned order's share is rounded to the dong: one each at most.
        const off = Math.abs((got?.returned_amount ?? 0) - want.amount!);
        return got?.orders === want.count && off <= want.count ? [] : [`${status}: ${got?.orders} worth ${got?.returned_amount} for ${want.count} worth ${want.amount}`];
      });
      return [same("orders back", data.total, truth.total), ...wrong].filter(Boolean).join("; ") || undefined;
    },
  },
  {
    id: "posts",
    label: "the posts that brought the most orders this month",
    tool: "search_orders",
    args: { group_by: ["post"], since: "this month", limit: 4 },
    truth: () => ({ kind: "posts", sinceMs: shopMonth() }),
    check: (data, truth) => {
      const got = ((data.groups ?? []) as { post: string; orders: number }[]).filter((g) => g.post !== "other").slice(0, 3);
      const top = Object.values(truth.groups).map((g) => g.count).sort((a, b) => b - a).slice(0, 3);
      const counts = got.map((g) => g.orders);
      const named = got.every((g) => truth.groups[g.post]?.count === g.orders);
      return String(counts) === String(top) && named ? undefined : `top posts ${counts.join(", ")} for ${top.join(", ")}`;
    },
  },
  {
    id: "open-order-chats",
    label: "chats on Mây Kids waiting over 2 days with an order not yet delivered",
    tool: "list_conversations",
    args: { page_ids: [MAY_KIDS], waiting_minutes: 2_880, with_open_orders: true, limit: 50 },
    truth: () => ({ kind: "open-order-chats", pageId: MAY_KIDS, waitedMs: 2 * 24 * HOUR }),
    check: (data, truth) => same("chats", data.total, truth.total),
    // Every chat of the page (a chat waiting since any time), and every page's customers: a chat is
    // joined to its customer's orders through their phones on every page (page-people.ts).
    floor: { pages: [MAY_KIDS], people: true },
  },
  // The chat-to-order funnel (issue 40): every page's customers read for the join, the shop's orders viewed in the index.
  {
    id: "never-ordered",
    label: "who wrote to Mây Kids last week and never ordered",
    tool: "list_conversations",
    args: { page_ids: ["Mây Kids"], time_field: "customer", since: "last week", until: "last week", ordered: false, group_by: ["page"] },
    truth: () => {
      const [sinceMs, untilMs] = lastWeek();
      return { kind: "never-ordered", pageId: MAY_KIDS, sinceMs, untilMs };
    },
    check: (data, truth) => funnel(data, truth, ["count", "people"]),
    // No list is ordered by the customer's last message: the one by activity is read back to the week's start.
    floor: { pages: [MAY_KIDS], read: { which: "active since last week began", truth: () => ({ kind: "conversations", updatedSinceMs: lastWeek()[0] }) }, people: true },
  },
  {
    id: "conversion",
    label: "conversion per page of last month's new chats within 7 days",
    tool: "list_conversations",
    args: { time_field: "created", since: "last month", until: "last month", group_by: ["page"], conversion_days: 7 },
    truth: () => ({ kind: "conversion", sinceMs: shopMonth(-1), untilMs: shopMonth(), days: 7 }),
    check: (data, truth) => funnel(data, truth, ["count", "people", "ordered", "people_ordered", "orders", "amount"]),
    // The list ordered by creation gives last month's alone.
    floor: { read: { which: "begun last month", truth: () => ({ kind: "created", sinceMs: shopMonth(-1), untilMs: shopMonth() }) }, people: true },
  },
];

/** The funnel's figures per page and over all (total: the chats), each against the truth's. */
function funnel(data: Loose, truth: Truth, figures: (keyof Figures)[]): string | undefined {
  const groups = new Map(((data.groups ?? []) as Loose[]).map((g) => [String(g.page_id), g]));
  const problems: string[] = [];
  for (const [pageId, want] of Object.entries(truth.groups)) {
    const got = groups.get(pageId);
    groups.delete(pageId);
    const off = figures.filter((f) => got?.[f] !== want[f]);
    if (off.length) problems.push(`page ${pageId}: ${off.map((f) => `${f} ${String(got?.[f])} for ${want[f]}`).join(", ")}`);
  }
  for (const [pageId, g] of groups) if (Number(g.count) > 0) problems.push(`page ${pageId}: ${String(g.count)} listed, none in the records`);
  if (data.other !== undefined) problems.push("groups past the limit: other");
  const whole = { ...truth, count: truth.total } as Figures;
  const headline = figures.map((f) => [f, f === "count" ? data.total : data[f]] as const).filter(([f, got]) => got !== whole[f]);
  if (headline.length) problems.push(`all: ${headline.map(([f, got]) => `${f} ${String(got)} for ${whole[f]}`).join(", ")}`);
  return problems.length ? problems.slice(0, 3).join("; ") + (problems.length > 3 ? `; ${problems.length - 3} more` : "") : undefined;
}


/** How long a client waits for one call (Claude Desktop, claude.ai), and the longest a call may take. */
const PATIENCE_MS = 60_000;
const LONGEST_CALL_MS = 45_000;
/** Calls a patient client makes at most before it gives up on a question. */
const MAX_CALLS = 5;

export type Loose = Record<string, unknown>;

/** Whether an answer's groups equal the truth: every listed group, and those past the limit summed in `other`. */
export function compare(question: Question, data: Loose, truth: Truth): string | undefined {
  const groups = (data.groups ?? []) as Loose[];
  const listed = new Map<string, { count: number; amount?: number }>();
  let other: { count: number; amount?: number } = { count: 0, amount: 0 };
  if (question.tool === "search_orders") {
    const keys = question.args.group_by as string[];
    for (const g of groups) {
      const figures = { count: Number(g.orders), amount: Number(g.amount) };
      if (g.groups !== undefined) other = figures;
      else if (figures.count > 0) listed.set(keys.map((k) => g[k]).join("|"), figures);
    }
  } else {
    for (const g of groups) listed.set(String(g.page_id), { count: Number(g.count) });
    const rest = data.other as { count?: number } | undefined;
    other = { count: rest?.count ?? 0 };
  }
  const problems: string[] = [];
  const rest = { count: 0, amount: 0 };
  for (const [label, want] of Object.entries(truth.groups)) {
    const got = listed.get(label);
    listed.delete(label);
    if (!got) {
      rest.count += want.count;
      rest.amount += want.amount ?? 0;
    } else if (got.count !== want.count || (want.amount !== undefined && got.amount !== want.amount)) {
      problems.push(`${label}: ${got.count} (${got.amount ?? "-"}) for ${want.count} (${want.amount ?? "-"})`);
    }
  }
  for (const label of listed.keys()) problems.push(`${label}: listed, not in the records`);
  if (other.count !== rest.count || (question.tool === "search_orders" && other.amount !== rest.amount)) {
    problems.push(`other: ${other.count} for ${rest.count}`);
  }
  if (data.total !== truth.total) problems.push(`total ${String(data.total)} for ${truth.total}`);
  return problems.length ? problems.slice(0, 3).join("; ") + (problems.length > 3 ? `; ${problems.length - 3} more` : "") : undefined;
}

interface Asked {
  ms: number;
  /** Calls made until the answer was exact (one for every question but a cold read that outlasts a call). */
  calls: number;
  /** The longest of them (ms), and each call's time. */
  longestMs: number;
  callMs: number[];
  requests: number;
  byEndpoint: Record<string, number>;
  progress: number;
  /** Longest silence between the call, its progress notifications and its answer (ms). */
  maxGapMs: number;
  /** CPU seconds the server process and the sandbox process spent while it was asked. */
  serverCpu: number;
  sandboxCpu: number;
  complete: boolean;
  /** Why the answer is not the truth; undefined when it is. */
  wrong?: string;
  groups: number;
  total: number;
}

/**
 * What a list page of the forked sandbox costs at this size (sandbox-pages.ts): the slowest of the
 * reads the index and the tools make, each the median of several, against 20 ms at any size.
 */
export async function emitPages(emit: (row: Row) => void, sandbox: ForkedSandbox, scale: number): Promise<void> {
  const { pages, search } = await sandbox.ask<Extract<Answer, { op: "pages" }>>({ op: "pages" });
  const slowest = Math.max(...Object.values(pages));
  emit({
    figure: `sandbox at ${scale}x demo: a list page (the slowest of the index's and the tools' reads, each a median, its JSON included)`,
    value: round(slowest, 2),
    unit: "ms",
    target: `<= 20 ms at any size (the rig's CPU must not set the figures); ${Object.entries(pages)
      .map(([label, ms]) => `${label} ${round(ms, 2)} ms`)
      .join("; ")}; a search of every order's phone, name and note ${round(search, 1)} ms; built in ${round(sandbox.buildMs / 1000, 1)} s, heap ${round(sandbox.heapMb, 0)} MB`,
    pass: slowest <= 20,
  });
}

export async function dataScale(emit: (row: Row) => void, options: DataScaleOptions): Promise<void> {
  const scales = options.smoke ? [{ scale: 2, latencyMs: 20 }] : (options.scales ?? [10, 100, 200]).map((scale) => ({ scale, latencyMs: 150 }));
  // Past the index's 5 s refresh interval: the repeat refreshes.
  const laterMs = options.smoke ? 6_000 : (options.laterMs ?? 60_000);
  let addressDone = false;
  for (const { scale, latencyMs } of scales) {
    const sandbox = await forkSandbox({ SANDBOX_SCALE: String(scale), SANDBOX_LATENCY_MS: String(latencyMs), SANDBOX_RATE_PER_SECOND: "5", SANDBOX_EXTRA_PAGES: "0" }, 300_000);
    const root = await mkdtemp(join(tmpdir(), "pancake-bench-index-"));
    try {
      await emitPages(emit, sandbox, scale);
      await scaleTier(emit, options, sandbox, root, scale, latencyMs, laterMs);
      if (!addressDone) {
        addressDone = true;
        await addressCache(emit, options, sandbox);
      }
    } finally {
      sandbox.stop();
      await rm(root, { recursive: true, force: true });
    }
  }
}

async function scaleTier(emit: (row: Row) => void, options: DataScaleOptions, sandbox: ForkedSandbox, root: string, scale: number, latencyMs: number, laterMs: number) {
  const env = (dir: string) => serverEnv(sandbox, { PANCAKE_INDEX: "disk", PANCAKE_INDEX_DIR: dir });
  const start = (dir: string) => startServer(options, env(dir));
  const ask = (server: Server, question: Question) => askQuestion(sandbox, server, question);
  const where = `${scale}x demo, ${latencyMs} ms upstream`;
  const pages = await pagesOf(sandbox);
  const targets = {
    cold: scale >= 100 ? 60_000 : scale >= 10 ? 6_000 : undefined,
    /** Within 1.3x the platform floor of what it must read. */
    inbox: (floor: Floor) => (scale >= 10 ? 1.3 * floor.ms : undefined),
    warm: scale >= 100 ? 5_000 : scale >= 10 ? 2_000 : undefined,
    restart: scale >= 100 ? 10_000 : undefined,
  };

  // Each question cold in a folder and process of its own, then again at once, then once more
  // after the interval (not after every other question's cold read: minutes, which no cache owes).
  const runs = [];
  const later: Asked[] = [];
  const questions = QUESTIONS.filter((q) => !options.questions || options.questions.includes(q.id));
  for (const question of questions) {
    const dir = join(root, question.id);
    const server = await start(dir);
    const cold = await ask(server, question);
    const warm = await ask(server, question);
    await sleep(laterMs);
    later.push(await ask(server, question));
    runs.push({ question, dir, server, cold, warm });
  }
  // After a restart: a new process on the same folder (the old one writes its index as it ends).
  const restarted: Asked[] = [];
  for (const run of runs) {
    await run.server.stop();
    const server = await start(run.dir);
    restarted.push(await ask(server, run.question));
    await server.stop();
  }

  for (const [i, run] of runs.entries()) {
    const { question, cold, warm } = run;
    const name = `data scale ${where}: ${question.label}`;
    const floor = await floorFor(sandbox, question);
    const physics = floor ? `; floor: ${floor.text}; ${round(cold.ms / floor.ms, 2)}x the floor` : "";
    const coldTarget = floor ? targets.inbox(floor) : targets.cold;
    emit(patient(`${name}, cold (empty index): first ask to the exact answer, a client that gives up at 60 s`, cold, coldTarget, physics));
    // Asked again at once: never slower than the first call was.
    emit(timed(`${name}, warm (asked again at once)`, warm, targets.warm, `; never slower than the first call (${round(cold.callMs[0]! / 1000, 2)} s)`, warm.ms <= cold.callMs[0]! + 250));
    emit(timed(`${name}, warm (${laterMs / 1000} s later: refreshed)`, later[i]!, targets.warm));
    emit(timed(`${name}, after a restart (new process, same index folder)`, restarted[i]!, targets.restart));
    // A refresh's floor is one call a list a page; the join to orders refreshes three lists: the
    // conversations of the pages asked, every page's customers, and the shop's orders.
    const joined = question.floor?.people ? (question.floor.pages?.length ?? pages.count) + pages.count + 1 : undefined;
    const most = joined === undefined ? 5 : joined + 2;
    const why =
      joined !== undefined
        ? ` (the floor is one refresh call a list a page: ${joined}, the conversations of the pages asked, every page's customers, the shop's orders)`
        : question.tool === "list_conversations"
          ? ` (the floor is one refresh call a page: ${pages.count} pages)`
          : "";
    emit({
      figure: `${name}, upstream requests for a warm repeat (${laterMs / 1000} s later)`,
      value: later[i]!.requests,
      unit: "requests",
      target: `<= ${most}${why}; asked again at once: ${warm.requests}; after the restart: ${restarted[i]!.requests} (${endpoints(restarted[i]!)}); refresh ${endpoints(later[i]!)}`,
      pass: later[i]!.requests <= most,
    });
  }
  const coldest = runs.reduce((a, b) => (b.cold.ms > a.cold.ms ? b : a));
  emit({
    figure: `data scale ${where}: progress notifications during the coldest question (${coldest.question.label})`,
    value: coldest.cold.progress,
    unit: "notifications",
    target: `> 0; longest silence ${round(coldest.cold.maxGapMs / 1000, 1)} s of ${round(coldest.cold.ms / 1000, 1)} s`,
    pass: coldest.cold.progress > 0,
  });
  const every = runs.flatMap((run, i) => [
    { label: `${run.question.id} cold`, ms: run.cold.longestMs },
    { label: `${run.question.id} warm`, ms: run.warm.longestMs },
    { label: `${run.question.id} later`, ms: later[i]!.longestMs },
    { label: `${run.question.id} restart`, ms: restarted[i]!.longestMs },
  ]);
  const longest = every.reduce((a, b) => (b.ms > a.ms ? b : a));
  emit({
    figure: `data scale ${where}: the longest call of every question asked (cold, warm, later, restart)`,
    value: round(longest.ms / 1000, 1),
    unit: "s",
    target: `<= ${LONGEST_CALL_MS / 1000} s (clients give up at 60 s); it was ${longest.label}`,
    pass: longest.ms <= LONGEST_CALL_MS,
  });

  // One process asks all four, as a seller's session would: its memory after, and the folder it leaves.
  const dir = join(root, "session");
  const server = await startServer(options, env(dir), true);
  const session: Asked[] = [];
  for (const question of questions) session.push(await ask(server, question));
  const rss = rssMb(server.pid);
  await server.collectGarbage();
  const kept = rssMb(server.pid);
  await server.stop();
  const bytes = await folderBytes(dir);
  const times = session.map((s, i) => `${questions[i]!.id} ${round(s.ms / 1000, 1)} s${s.complete && !s.wrong ? "" : " (NOT EXACT)"}`).join(", ");
  // The targets are for 100 times the demo; larger shops are reported.
  const atScale = scale === 100;
  emit({
    figure: `data scale ${where}: server resident memory after all the questions in one process`,
    value: round(rss, 1),
    unit: "MB",
    target: `${atScale ? "<= 300 MB" : "reported (target at 100x)"}, as found; after a full collection ${round(kept, 1)} MB; the session, cold: ${times}`,
    pass: atScale ? rss <= 300 && session.every((s) => s.complete && !s.wrong) : null,
  });
  // The index is a database queried where it lives (an order's row is about 2.2 KB of JSON, kept
  // uncompressed so that a scan reads it as it is), not a gzip copy loaded whole into memory: its
  // budget is per row held, the demo's 560 orders and 380 conversations times the scale.
  const rowsHeld = scale * (560 + 380);
  emit({
    figure: `data scale ${where}: shop index folder on disk after all the questions`,
    value: round(bytes / 2 ** 20, 2),
    unit: "MB",
    target: `${atScale ? "<= 3 KB a row held" : "reported (target at 100x)"} (${rowsHeld} rows: ${round(bytes / rowsHeld / 1024, 2)} KB a row)`,
    pass: atScale ? bytes <= rowsHeld * 3 * 1024 : null,
  });
}

/** A time row: within target, complete and equal to the truth, in one call. */
function timed(figure: string, asked: Asked, targetMs: number | undefined, note = "", also = true): Row {
  const exact = asked.complete && !asked.wrong && asked.calls === 1;
  return {
    figure,
    value: round(asked.ms / 1000, 2),
    unit: "s",
    target: `${targetMs === undefined ? "no target at this scale" : `<= ${targetMs / 1000} s`}; ${verdict(asked)}; ${cost(asked)}${note}`,
    pass: targetMs === undefined ? (exact && also ? null : false) : asked.ms <= targetMs && exact && also,
  };
}

/** The first ask of a cold question: exact within 3 calls, none past 45 s, from the first ask to the exact answer within target. */
function patient(figure: string, asked: Asked, targetMs: number | undefined, note = ""): Row {
  const exact = asked.complete && !asked.wrong;
  const calls = `${asked.calls} call${asked.calls === 1 ? "" : "s"} (${asked.callMs.map((ms) => round(ms / 1000, 1)).join(" s, ")} s)`;
  const within = exact && asked.calls <= 3 && asked.longestMs <= LONGEST_CALL_MS;
  return {
    figure,
    value: round(asked.ms / 1000, 2),
    unit: "s",
    target: `${targetMs === undefined ? "no target at this scale" : `<= ${round(targetMs / 1000, 1)} s`}, within 3 calls of <= 45 s: ${calls}; ${verdict(asked)}; ${cost(asked)}${note}`,
    pass: targetMs === undefined ? (within ? null : false) : asked.ms <= targetMs && within,
  };
}

const verdict = (asked: Asked) =>
  asked.complete && !asked.wrong ? `complete, exact (${asked.groups} groups, ${asked.total} counted)` : `NOT EXACT: ${asked.complete ? "" : "complete false; "}${asked.wrong ?? ""}`;
const cost = (asked: Asked) =>
  `CPU: server ${round(asked.serverCpu, 1)} s, sandbox ${round(asked.sandboxCpu, 1)} s; ${asked.requests} upstream requests (${endpoints(asked)})`;

const endpoints = (asked: Asked) =>
  Object.entries(asked.byEndpoint)
    .sort(([, a], [, b]) => b - a)
    .map(([name, n]) => `${name} ${n}`)
    .join(", ") || "none";

/**
 * A question asked as a client that gives up on a call at 60 s asks it: again at once after a
 * call it gave up on, again after the seconds an incomplete answer says, until the answer is
 * complete (MAX_CALLS at most). Its time runs from the first ask to the last answer.
 */
async function askQuestion(sandbox: ForkedSandbox, server: Server, question: Question): Promise<Asked> {
  await quiet([...live, sandbox.pid]);
  await sandbox.ask({ op: "mark" });
  const cpu0 = [cpuSeconds(server.pid), cpuSeconds(sandbox.pid)];
  let progress = 0;
  let maxGapMs = 0;
  const callMs: number[] = [];
  const t0 = performance.now();
  let result: CallToolResult | undefined;
  let failure = "";
  for (let call = 0; call < MAX_CALLS; call++) {
    const c0 = performance.now();
    let last = c0;
    try {
      result = (await server.client.callTool(
        { name: question.tool, arguments: question.args },
        {
          timeout: PATIENCE_MS,
          onprogress: () => {
            const now = performance.now();
            maxGapMs = Math.max(maxGapMs, now - last);
            last = now;
            progress++;
          },
        },
      )) as CallToolResult;
      failure = "";
    } catch (error) {
      result = undefined;
      failure = `gave up at ${PATIENCE_MS / 1000} s: ${error instanceof Error ? error.message : String(error)}`;
    }
    const now = performance.now();
    callMs.push(now - c0);
    maxGapMs = Math.max(maxGapMs, now - last);
    const data = (result?.structuredContent ?? {}) as Loose;
    if (result && (result.isError || data.complete !== false)) break;
    if (result) await sleep(Math.min(Number(data.ask_again_in_s ?? 10), 120) * 1000);
  }
  const ms = performance.now() - t0;
  const [serverCpu, sandboxCpu] = [cpuSeconds(server.pid) - cpu0[0]!, cpuSeconds(sandbox.pid) - cpu0[1]!];
  const { total, byEndpoint } = await sandbox.ask<Extract<Answer, { op: "requests" }>>({ op: "requests" });
  const data = (result?.structuredContent ?? {}) as Loose;
  const longestMs = Math.max(...callMs);
  const asked = { ms, calls: callMs.length, longestMs, callMs, requests: total, byEndpoint, progress, maxGapMs, serverCpu, sandboxCpu, complete: data.complete !== false && !!result && !result.isError, groups: 0, total: 0 };
  if (!result) return { ...asked, complete: false, wrong: failure };
  if (result.isError) {
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    return { ...asked, complete: false, wrong: `error: ${text.slice(0, 200)}` };
  }
  if (data.complete === false) return { ...asked, wrong: `still not complete after ${MAX_CALLS} calls` };
  const { truth } = await sandbox.ask<Extract<Answer, { op: "truth" }>>({ op: "truth", question: question.truth() });
  return { ...asked, wrong: (question.check ?? ((d, t) => compare(question, d, t)))(data, truth), groups: Object.keys(truth.groups).length, total: truth.total };
}

async function folderBytes(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(names.map(async (name) => (await stat(join(dir, name))).size));
  return sizes.reduce((a, b) => a + b, 0);
}

interface Pages {
  count: number;
  /** Per page id: its conversations and its page customers. */
  each: Map<string, { conversations: number; customers: number }>;
}

export interface Floor {
  ms: number;
  text: string;
}

/** The sandbox's pages, each one's conversations (those `read` counts) and page customers: what bounds reading them at the platform's pace. */
async function pagesOf(sandbox: ForkedSandbox, read: TruthQuestion = { kind: "conversations" }): Promise<Pages> {
  const count = async (question: TruthQuestion) => (await sandbox.ask<Extract<Answer, { op: "truth" }>>({ op: "truth", question })).truth.groups;
  const [all, conversations, customers] = [await count({ kind: "conversations" }), await count(read), await count({ kind: "page-customers" })];
  const each = new Map(Object.keys(all).map((pageId) => [pageId, { conversations: conversations[pageId]?.count ?? 0, customers: customers[pageId]?.count ?? 0 }]));
  return { count: each.size, each };
}

/** Conversations a call, and page customers a call (page-people.ts's page size), and calls a second a page. */
const CONVERSATIONS_A_CALL = 60;
const CUSTOMERS_A_CALL = 100;
const CALLS_A_SECOND = 5;

/** What bounds the question's first answer at the platform's pace (undefined: nothing the platform limits). */
export async function floorFor(sandbox: ForkedSandbox, question: Question): Promise<Floor | undefined> {
  return question.floor && floorOf(question.floor, await pagesOf(sandbox, question.floor.read?.truth()));
}

/** The slowest page's share of what the question must read, at the platform's pace: the pages are read at once. */
function floorOf(floor: NonNullable<Question["floor"]>, pages: Pages): Floor {
  const perPage = [...pages.each].map(([pageId, page]) => {
    const conversations = !floor.pages || floor.pages.includes(pageId) ? page.conversations : 0;
    const customers = floor.people ? page.customers : 0;
    const calls = Math.ceil(conversations / CONVERSATIONS_A_CALL) + Math.ceil(customers / CUSTOMERS_A_CALL);
    return { pageId, conversations, customers, calls };
  });
  const slowest = perPage.reduce((a, b) => (b.calls > a.calls ? b : a));
  const what = [`${slowest.conversations} conversations${floor.read ? ` ${floor.read.which}` : ""} / ${CONVERSATIONS_A_CALL} a call`, ...(floor.people ? [`${slowest.customers} page customers / ${CUSTOMERS_A_CALL} a call`] : [])].join(" + ");
  const ms = (slowest.calls / CALLS_A_SECOND) * 1000;
  return { ms, text: `page ${slowest.pageId}, the slowest to read: ${what} = ${slowest.calls} calls, at ${CALLS_A_SECOND} a second ${round(ms / 1000, 1)} s` };
}

/**
 * The issue: "2,000 distinct made-up ids took the server from 105 to 158 MB". lookup_address with
 * made-up province ids, and made-up district ids under real provinces, against a fresh process:
 * its memory as found and after a full collection, before, after 2,000 and after 4,000 such calls.
 * Bounded: the second 2,000 leave it where the first left it.
 */
async function addressCache(emit: (row: Row) => void, options: DataScaleOptions, sandbox: ForkedSandbox) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    PANCAKE_POS_BASE_URL: sandbox.urls.posBaseUrl,
    PANCAKE_POS_API_KEY: sandbox.credentials.posApiKey,
    PANCAKE_LOG_LEVEL: "error",
    PANCAKE_TOOLSETS: "all",
    PANCAKE_INDEX: "off",
  };
  const server = await startServer(options, env, true);
  try {
    const reading = async () => {
      const found = rssMb(server.pid);
      await server.collectGarbage();
      return { found: round(found, 1), kept: round(rssMb(server.pid), 1) };
    };
    const provinces = ["101", "102", "103", "104", "105", "106", "107", "108", "109", "110"];
    let n = 0;
    const calls = async (count: number) => {
      for (let i = 0; i < count; i++, n++) {
        // Half made-up provinces, half made-up districts of real ones; every id distinct.
        const args = n % 2 ? { province_id: String(9_000_000 + n) } : { province_id: provinces[n % provinces.length]!, district_id: String(8_000_000 + n) };
        await server.client.callTool({ name: "lookup_address", arguments: args });
      }
    };
    await calls(20);
    const before = await reading();
    await calls(2_000);
    const first = await reading();
    await calls(2_000);
    const second = await reading();
    const growth = round(second.kept - first.kept, 1);
    emit({
      figure: "address cache bound: lookup_address with 2,000 then 2,000 more distinct made-up province/district ids, resident memory after a full collection",
      value: second.kept,
      unit: "MB",
      target: `bounded: the second 2,000 add <= 5 MB (${growth} MB); after a full collection ${before.kept} -> ${first.kept} -> ${second.kept} MB; as found ${before.found} -> ${first.found} -> ${second.found} MB; cap: the geo cache keeps at most 2,000 keys and 8 MB for 24 h (src/tools/shop/geo-index.ts), and a made-up id is refused before anything is cached under it`,
      pass: growth <= 5,
    });
    // The same cache through the resource template (issue 33): ids of a place id's form and 8 KB
    // ids, every one distinct, refused before anything is read or cached under them.
    let r = 0;
    const reads = async (count: number) => {
      for (let i = 0; i < count; i++, r++) {
        const id = r % 2 ? String(7_000_000 + r) : String(r).padStart(8_000, "9");
        await server.client.readResource({ uri: `pos://geo/provinces/${id}/districts` }).catch(() => undefined);
      }
    };
    await reads(20);
    const start = await reading();
    await reads(2_000);
    const once = await reading();
    await reads(2_000);
    const twice = await reading();
    const added = round(twice.kept - once.kept, 1);
    emit({
      figure: "address cache bound: resources/read of pos://geo/provinces/{id}/districts with 2,000 then 2,000 more distinct made-up ids (half 8 KB), resident memory after a full collection",
      value: twice.kept,
      unit: "MB",
      target: `bounded: the second 2,000 add <= 5 MB (${added} MB); after a full collection ${start.kept} -> ${once.kept} -> ${twice.kept} MB; as found ${start.found} -> ${once.found} -> ${twice.found} MB; the resource reads through the tool's cache and its id checks (src/tools/shop/geo-index.ts)`,
      pass: added <= 5,
    });
  } finally {
    await server.stop();
  }
}
