import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { type CallOutcome, type Harness, startHarness } from "../helpers/harness.js";

/**
 * Shop-owner questions answered the way a model would from the tool descriptions alone, against
 * the demo shop with the default tools. Each question's true answer is computed from the
 * sandbox's raw records, never from tool code; the answer must come in at most MAX_CALLS calls
 * and MAX_TOKENS tokens of results.
 */
export const MAX_CALLS = 2;
export const MAX_TOKENS = 4_000;

export interface Asked {
  /** Calls a tool as the model would; every call counts, failed ones included. */
  call(tool: string, args?: Record<string, unknown>): Promise<CallOutcome>;
  sandbox: Sandbox;
}

export interface Scenario<A> {
  question: string;
  /** The calls a model makes, then the answer it reads out of the results. */
  ask(q: Asked): Promise<A>;
  /** The true answer, from the sandbox's raw records. */
  truth(sandbox: Sandbox): A;
}

export interface Measured {
  question: string;
  calls: number;
  tokens: number;
  tools: string[];
}

export const measured: Measured[] = [];

/** Runs each scenario as a test against one demo shop with the default tools. */
export function runScenarios(group: string, scenarios: Scenario<unknown>[]): void {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { toolsets: ["default"], dynamicToolsets: true }, sandbox: { ratePerSecond: 10_000 }, callCenters: true });
  });
  afterAll(() => h.close());

  for (const s of scenarios) {
    it(`${group}: ${s.question}`, async () => {
      const record: Measured = { question: s.question, calls: 0, tokens: 0, tools: [] };
      const answer = await s.ask({
        sandbox: h.sandbox,
        async call(tool, args = {}) {
          const r = await h.call(tool, args);
          record.calls++;
          record.tokens += countTokens(r.text);
          record.tools.push(r.isError ? `${tool} (error)` : tool);
          return r;
        },
      });
      measured.push(record);
      const truth = s.truth(h.sandbox);
      // An empty truth would let an empty answer pass: each question must have something to find.
      expect(vacuous(truth), `the demo shop has nothing to find for: ${s.question}`).toBe(false);
      expect(answer).toEqual(truth);
      expect(record.calls, record.tools.join(", ")).toBeLessThanOrEqual(MAX_CALLS);
      expect(record.tokens).toBeLessThanOrEqual(MAX_TOKENS);
    });
  }
}

function vacuous(value: unknown): boolean {
  if (value === undefined || value === null || value === 0 || value === "" || value === false) return true;
  if (Array.isArray(value)) return value.length === 0 || value.every(vacuous);
  if (typeof value === "object") return Object.values(value).every(vacuous);
  return false;
}

/** The shop's calendar day `days` before the sandbox's today (Asia/Ho_Chi_Minh). */
export function shopDay(sandbox: Sandbox, daysBefore = 0): string {
  return new Date(sandbox.now.getTime() + 7 * 3_600_000 - daysBefore * 86_400_000).toISOString().slice(0, 10);
}
