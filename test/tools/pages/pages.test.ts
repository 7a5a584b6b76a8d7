import { beforeAll, describe, expect, it } from "vitest";
import { TOOLSETS } from "../../../src/toolsets.js";
import { startHarness, useHarness } from "../../helpers/harness.js";

const WRITES = [
  "generate_page_access_token",
  "send_inbox_message",
  "reply_to_comment",
  "send_private_reply",
  "update_conversation_tags",
  "assign_conversation",
  "mark_conversation",
];
const READS = ["list_pages", "list_page_users", "list_conversations", "list_messages", "list_page_tags", "list_page_customers", "list_posts", "list_call_logs"];

describe("pages toolset", () => {
  const h = useHarness();
  let pageId: string;
  beforeAll(() => {
    pageId = h.sandbox.messaging.pages[0]!.id;
  });

  it("list_page_users lists active staff, and disabled ones on request", async () => {
    const members = h.sandbox.messaging.staff.filter((s) => s.page_ids.includes(pageId));
    const active = members.filter((s) => !s.disabled_page_ids.includes(pageId));
    const r = await h.call("list_page_users", { page_id: pageId });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.users.map((u: { id: string; name: string; email: string }) => [u.id, u.name, u.email])).toEqual(
      active.map((s) => [s.id, s.name, s.email]),
    );
    const all = await h.call("list_page_users", { page_id: pageId, include_disabled: true });
    expect(all.data.users.filter((u: { disabled?: boolean }) => u.disabled).map((u: { id: string }) => u.id)).toEqual(
      members.filter((s) => s.disabled_page_ids.includes(pageId)).map((s) => s.id),
    );
  });

  it("generate_page_access_token needs confirm, never shows the token, and keeps working with the new one", async () => {
    const before = h.sandbox.messaging.pages[1]!.settings.page_access_token;
    const target = h.sandbox.messaging.pages[1]!.id;
    const refused = await h.call("generate_page_access_token", { page_id: target, confirm: false });
    expect(refused.isError).toBe(true);
    expect(h.sandbox.messaging.pages[1]!.settings.page_access_token).toBe(before);
    await h.call("list_page_tags", { page_id: target });
    const r = await h.call("generate_page_access_token", { page_id: target, confirm: true });
    expect(r.isError, r.text).toBe(false);
    const fresh = h.sandbox.messaging.pages[1]!.settings.page_access_token;
    expect(fresh).not.toBe(before);
    expect(r.text).not.toContain(fresh);
    const after = await h.call("list_page_customers", { page_id: target, limit: 1 });
    expect(after.isError, after.text).toBe(false);
  });

  it("declares the token tool destructive and every write non-idempotent", async () => {
    const { tools } = await h.client.listTools();
    const token = tools.find((t) => t.name === "generate_page_access_token")!;
    // readOnlyHint and idempotentHint are left out at their defaults (false).
    expect(token.annotations).toEqual({ destructiveHint: true });
    expect(token.description).toMatch(/the old one stops working/);
    for (const name of WRITES) expect(tools.find((t) => t.name === name)?.annotations?.idempotentHint ?? false, name).toBe(false);
  });

  it("a read-only server exposes none of the write tools", async () => {
    const ro = await startHarness({ config: { readOnly: true, toolsets: [...TOOLSETS] } });
    try {
      const names = (await ro.client.listTools()).tools.map((t) => t.name);
      for (const name of WRITES) expect(names).not.toContain(name);
      for (const name of READS) expect(names).toContain(name);
    } finally {
      await ro.close();
    }
  });
});
