import type { Sandbox } from "../../src/sandbox/index.js";

/**
 * From the sandbox's raw records: the conversations of the active pages whose last message is the
 * customer's (waiting for a reply, of all time), counted per page.
 */
export function waitingByPage(sandbox: Sandbox): Map<string, number> {
  const s = sandbox.messaging;
  const active = new Set(s.pages.map((p) => p.id));
  const counts = new Map<string, number>();
  for (const c of s.conversations) {
    const thread = s.messages[c.id];
    if (!active.has(c.page_id) || !thread?.length || thread.at(-1)?.from.admin_id !== undefined) continue;
    counts.set(c.page_id, (counts.get(c.page_id) ?? 0) + 1);
  }
  return counts;
}
