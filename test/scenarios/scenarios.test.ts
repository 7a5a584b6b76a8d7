import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, describe } from "vitest";
import { addressScenarios } from "./addresses.js";
import { figureScenarios } from "./figures.js";
import { chatToShopScenarios } from "./chat-to-shop.js";
import { MAX_CALLS, MAX_TOKENS, measured, runScenarios } from "./framework.js";
import { inboxScenarios } from "./inbox.js";
import { inboxCountScenarios } from "./inbox-counts.js";
import { leftToModelScenarios } from "./left-to-model.js";
import { orderGroupScenarios } from "./order-groups.js";
import { orderScenarios } from "./orders.js";
import { salesScenarios } from "./sales.js";
import { statsScenarios } from "./stats.js";
import { writeScenarios } from "./writes.js";

describe("shop-owner questions, default tools", () => {
  runScenarios("stats", statsScenarios);
  runScenarios("sales", salesScenarios);
  runScenarios("inbox", inboxScenarios);
  runScenarios("inbox counts", inboxCountScenarios);
  runScenarios("orders", orderScenarios);
  runScenarios("order groups", orderGroupScenarios);
  runScenarios("addresses", addressScenarios);
  runScenarios("figures", figureScenarios);
  runScenarios("chat-to-shop", chatToShopScenarios);
  runScenarios("writes", writeScenarios);
  runScenarios("left to the model", leftToModelScenarios);
});

// The distribution the issue asks for: calls and result tokens per question, written where people
// can read it (test/artifacts/scenarios.json) and printed with the run.
afterAll(() => {
  const tokens = measured.map((m) => m.tokens).sort((a, b) => a - b);
  const pct = (p: number) => tokens[Math.min(tokens.length - 1, Math.floor((p / 100) * tokens.length))] ?? 0;
  const summary = {
    questions: measured.length,
    calls: Object.fromEntries([1, 2, 3].map((n) => [n, measured.filter((m) => m.calls === n).length])),
    tokens: { min: tokens[0] ?? 0, p50: pct(50), p90: pct(90), max: tokens[tokens.length - 1] ?? 0 },
    limits: { calls: MAX_CALLS, tokens: MAX_TOKENS },
  };
  mkdirSync(new URL("../artifacts/", import.meta.url), { recursive: true });
  writeFileSync(new URL("../artifacts/scenarios.json", import.meta.url), `${JSON.stringify({ summary, measured }, null, 2)}\n`);
  console.log(`scenarios: ${JSON.stringify(summary)}`);
});
