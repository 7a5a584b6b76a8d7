import { UriTemplate } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { Sandbox } from "../../../src/sandbox/index.js";
import { startHarness, useHarness } from "../../helpers/harness.js";

// Pages and staff named the way people say them: part of the name, no accents, any case.

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/đ/g, "d")
    .replace(/Đ/g, "D")
    .toLowerCase();

describe("pages by name", () => {
  const h = useHarness();

  it("resolves part of a page's name, accents and case optional, in every kind of tool", async () => {
    const kids = h.sandbox.messaging.pages.find((p) => p.name.startsWith("Mây Kids"))!;
    const tags = await h.call("list_page_tags", { page_id: "may KIDS" });
    expect(tags.isError, tags.text).toBe(false);
    expect(tags.data.tags.map((t: { id: string }) => t.id)).toEqual(h.sandbox.messaging.tags[kids.id]!.map((t) => String(t.id)));

    const staff = await h.call("list_page_users", { page_id: "Mây Kids" });
    const active = h.sandbox.messaging.staff.filter((s) => s.page_ids.includes(kids.id) && !s.disabled_page_ids.includes(kids.id));
    expect(staff.data.users.map((u: { id: string }) => u.id)).toEqual(active.map((s) => s.id));

    // A statistics tool (page_ids) and the call for it reach the right page's path.
    const stats = await h.call("get_page_stats", { page_ids: ["mây kids"], since: "yesterday", until: "today" });
    expect(stats.isError, stats.text).toBe(false);
    expect(h.sandbox.server.requests.at(-1)!.path).toContain(`/pages/${kids.id}/statistics/pages`);

    const exact = await h.call("list_page_tags", { page_id: fold(h.sandbox.messaging.pages[2]!.name) });
    expect(exact.isError, exact.text).toBe(false);
  });

  it("names the pages a name could mean, and lists them all for an unknown one", async () => {
    const pages = [...h.sandbox.messaging.pages, ...h.sandbox.messaging.inactivePages];
    const several = await h.call("list_page_tags", { page_id: "Mây" });
    expect(several.isError).toBe(true);
    const meant = pages.filter((p) => fold(p.name).split(/[^a-z0-9]+/).includes("may"));
    expect(meant.length).toBeGreaterThan(1);
    expect(several.text).toMatch(/^Error \(invalid_input\): page_id: "Mây" matches several pages/);
    for (const p of meant) expect(several.text).toContain(`${p.id} (${p.name})`);

    const unknown = await h.call("list_conversations", { page_ids: ["Thời Trang Mây", "Mây Shoes"] });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^Error \(invalid_input\): page_ids\[1\]: "Mây Shoes" is not a page of this account/);
    for (const p of pages) expect(unknown.text).toContain(`${p.id} (${p.name})`);
  });

  it("reads a known page id without reading the page list again", async () => {
    const pageId = h.sandbox.messaging.pages[0]!.id;
    await h.call("list_page_tags", { page_id: pageId });
    const before = h.sandbox.server.requests.filter((r) => r.path.endsWith("/v1/pages")).length;
    await h.call("list_page_users", { page_id: pageId });
    expect(h.sandbox.server.requests.filter((r) => r.path.endsWith("/v1/pages")).length).toBe(before);
  });

  it("serves a page resource named by its name", async () => {
    const page = h.sandbox.messaging.pages[2]!;
    const r = await h.client.readResource({ uri: `pancake://pages/${page.name}/tags` });
    const data = JSON.parse((r.contents[0] as { text: string }).text);
    expect(data.page_id).toBe(page.id);
    expect(data.tags.map((t: { name: string }) => t.name)).toEqual(h.sandbox.messaging.tags[page.id]!.map((t) => t.text));
    // As a client's URI template expands it: percent-encoded.
    const kids = h.sandbox.messaging.pages.find((p) => p.name.startsWith("Mây Kids"))!;
    const uri = new UriTemplate("pancake://pages/{page_id}/tags").expand({ page_id: "Mây Kids" });
    expect(uri).toBe("pancake://pages/M%C3%A2y%20Kids/tags");
    const encoded = JSON.parse(((await h.client.readResource({ uri })).contents[0] as { text: string }).text);
    expect(encoded.page_id).toBe(kids.id);
    await expect(h.client.readResource({ uri: "pancake://pages/%E0%A4%A/tags" })).rejects.toThrow(/percent-encoding/);
  });

  it("without the user token takes page ids only, and says why a name cannot be read", async () => {
    const tokens = new Sandbox().credentials.pageTokens;
    const [pageId] = Object.keys(tokens);
    const bare = await startHarness({ credentials: false, config: { pageAccessTokens: { [pageId!]: tokens[pageId!]! } } });
    try {
      const byId = await bare.call("list_page_tags", { page_id: pageId });
      expect(byId.isError, byId.text).toBe(false);
      const byName = await bare.call("list_page_tags", { page_id: "Thời Trang Mây" });
      expect(byName.isError).toBe(true);
      expect(byName.text).toMatch(/page_id: "Thời Trang Mây" is not a page id/);
      expect(byName.text).toMatch(/PANCAKE_ACCESS_TOKEN/);
      // "All pages" are then the pages given a token.
      const all = await bare.call("list_conversations", { awaiting_reply: true });
      expect(all.isError, all.text).toBe(false);
      expect(all.data.pages.map((p: { page_id: string }) => p.page_id)).toEqual([pageId]);
    } finally {
      await bare.close();
    }
  });
});

describe("staff by given name or part of a name", () => {
  const h = useHarness();

  it("assigns the only staff member whose name holds the word, accents optional", async () => {
    const page = h.sandbox.messaging.pages[0]!;
    const active = h.sandbox.messaging.staff.filter((s) => s.page_ids.includes(page.id) && !s.disabled_page_ids.includes(page.id));
    // A word of exactly one active staff member's name, typed without accents.
    const word = active
      .flatMap((s) => fold(s.name).split(" "))
      .find((w, _i, all) => all.filter((x) => x === w).length === 1 && w.length > 2)!;
    const expected = active.find((s) => fold(s.name).split(" ").includes(word))!;
    const target = h.sandbox.messaging.conversations.find((c) => c.page_id === page.id && c.type === "INBOX")!;
    const r = await h.call("assign_conversation", { page_id: page.id, conversation_id: target.id, assignees: [word.toUpperCase()] });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.assignees).toEqual([{ id: expected.id, name: expected.name }]);
    expect(target.assignee_ids).toEqual([expected.id]);
  });

  it("refuses a name two staff share, naming both, and a disabled one as disabled", async () => {
    const s = h.sandbox.messaging;
    const page = s.pages[1]!;
    const active = s.staff.filter((x) => x.page_ids.includes(page.id) && !x.disabled_page_ids.includes(page.id));
    // Two staff members who share a word of their names.
    const [a, b] = active;
    const shared = fold(a!.name).split(" ")[0]!;
    const saved = b!.name;
    b!.name = `${a!.name.split(" ")[0]} Văn Test`;
    try {
      const target = s.conversations.find((c) => c.page_id === page.id && c.type === "INBOX")!;
      const r = await h.call("assign_conversation", { page_id: page.id, conversation_id: target.id, assignees: [shared] });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(new RegExp(`assignees: "${shared}" matches several staff`));
      expect(r.text).toContain(a!.email);
      expect(r.text).toContain(b!.email);
    } finally {
      b!.name = saved;
    }
    const first = s.pages[0]!;
    const gone = s.staff.find((x) => x.disabled_page_ids.includes(first.id))!;
    const c0 = s.conversations.find((c) => c.page_id === first.id && c.type === "INBOX")!;
    const r = await h.call("assign_conversation", { page_id: first.id, conversation_id: c0.id, assignees: [fold(gone.name).split(" ").at(-1)!] });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/is disabled on this page/);
  });
});

describe("a name a typo away", () => {
  const h = useHarness();
  // Swaps the last two letters: "Trần Minh Khoa" -> "Tran Minh Khao".
  const typo = (name: string) => {
    const plain = fold(name);
    return `${plain.slice(0, -2)}${plain.at(-1)}${plain.at(-2)}`;
  };

  it("is refused with a did-you-mean for staff, pages and warehouses, never resolved by itself", async () => {
    const s = h.sandbox.messaging;
    const page = s.pages[0]!;
    const staff = s.staff.find((x) => x.page_ids.includes(page.id) && !x.disabled_page_ids.includes(page.id))!;
    const target = s.conversations.find((c) => c.page_id === page.id && c.type === "INBOX")!;
    const stats = await h.call("assign_conversation", { page_id: page.id, conversation_id: target.id, assignees: [typo(staff.name)] });
    expect(stats.isError).toBe(true);
    expect(stats.text).toContain(`Did you mean ${staff.name} <${staff.email}>?`);
    expect(target.assignee_ids).not.toContain(staff.id);

    const pageTypo = await h.call("list_page_tags", { page_id: typo(page.name) });
    expect(pageTypo.isError).toBe(true);
    expect(pageTypo.text).toContain(`Did you mean ${page.id} (${page.name})?`);
    // The start of a longer name, misspelt.
    const kids = s.pages.find((p) => p.name.startsWith("Mây Kids"))!;
    const partial = await h.call("list_page_tags", { page_id: "Mây Kidz" });
    expect(partial.text).toContain(`Did you mean ${kids.id} (${kids.name})?`);

    const warehouse = h.sandbox.pos.warehouses[0]!;
    const low = await h.call("search_products", { max_stock: 3, warehouse_id: typo(warehouse.name) });
    expect(low.isError).toBe(true);
    expect(low.text).toContain(`Did you mean ${warehouse.name} (${warehouse.id})?`);
  });
});

describe("a deactivated page", () => {
  const h = useHarness();

  it("is refused as deactivated, naming the activated pages, in tools and resources alike", async () => {
    const outlet = h.sandbox.messaging.inactivePages[0]!;
    const r = await h.call("list_conversations", { page_ids: [outlet.name] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`page ${outlet.id} (${outlet.name}) is deactivated in Pancake`);
    expect(r.text).toContain(h.sandbox.messaging.pages[0]!.name);
    expect(r.text).not.toContain("PANCAKE_PAGE_ACCESS_TOKENS");
    await expect(h.client.readResource({ uri: `pancake://pages/${outlet.id}/tags` })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/deactivated/) });
  });
});
