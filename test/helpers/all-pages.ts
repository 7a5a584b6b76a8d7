import { expect } from "vitest";
import type { Harness } from "./harness.js";

/** Every row of a list tool, following next_cursor (at most `maxCalls` calls). */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary row shapes
export async function allPages(h: Harness, tool: string, key: string, args: Record<string, unknown>, maxCalls = 50): Promise<any[]> {
  const rows: unknown[] = [];
  let cursor: string | undefined;
  let calls = 0;
  do {
    const r = await h.call(tool, { ...args, ...(cursor ? { cursor } : {}) });
    expect(r.isError, r.text).toBe(false);
    rows.push(...r.data[key]);
    cursor = r.data.next_cursor;
    calls += 1;
  } while (cursor && calls < maxCalls);
  return rows;
}
