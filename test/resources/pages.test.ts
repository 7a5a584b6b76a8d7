import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/harness.js";

describe("page resources", () => {
  let h: Harness;
  let pageId: string;
  const read = async (uri: string) => {
    const r = await h.client.readResource({ uri });
    return JSON.parse((r.contents[0] as { text: string }).text);
  };
  beforeAll(async () => {
    h = await startHarness();
    pageId = h.sandbox.messaging.pages[0]!.id;
  });
  afterAll(async () => {
    await h.close();
  });

  it("pancake://pages lists the activated pages", async () => {
    const data = await read("pancake://pages");
    expect(data.pages.map((p: { id: string }) => p.id)).toEqual(h.sandbox.messaging.pages.map((p) => p.id));
    expect(JSON.stringify(data)).not.toContain(h.sandbox.messaging.pages[0]!.settings.page_access_token);
  });

  it("serves a page's tags and staff", async () => {
    const tags = await read(`pancake://pages/${pageId}/tags`);
    expect(tags.tags.map((t: { name: string }) => t.name)).toEqual(h.sandbox.messaging.tags[pageId]!.map((t) => t.text));
    const users = await read(`pancake://pages/${pageId}/users`);
    const active = h.sandbox.messaging.staff.filter((s) => s.page_ids.includes(pageId) && !s.disabled_page_ids.includes(pageId));
    expect(users.users.map((u: { id: string }) => u.id)).toEqual(active.map((s) => s.id));
  });

  it("lists the templates' resources and completes page_id", async () => {
    const { resources } = await h.client.listResources();
    for (const p of h.sandbox.messaging.pages) expect(resources.map((r) => r.uri)).toContain(`pancake://pages/${p.id}/tags`);
    const byId = await h.client.complete({
      ref: { type: "ref/resource", uri: "pancake://pages/{page_id}/users" },
      argument: { name: "page_id", value: pageId.slice(0, 4) },
    });
    expect(byId.completion.values).toContain(pageId);
    const byName = await h.client.complete({
      ref: { type: "ref/resource", uri: "pancake://pages/{page_id}/tags" },
      argument: { name: "page_id", value: "thoi trang" },
    });
    expect(byName.completion.values).toEqual([pageId]);
  });

  it("refuses a page id that could steer the upstream path", async () => {
    await expect(h.client.readResource({ uri: "pancake://pages/..%2F..%2Fv1/tags" })).rejects.toThrow();
  });
});
