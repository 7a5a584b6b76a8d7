import { describe, expect, it } from "vitest";
import { useHarness } from "../../helpers/harness.js";

// Lists several tools join against (staff, tags, the page list) are read through the shared
// one-minute caches, not once per call and page.

describe("statistics read staff and tag lists through the shared caches", () => {
  const h = useHarness();
  const count = (suffix: string) => h.sandbox.server.requests.filter((r) => r.path.endsWith(suffix)).length;

  it("get_staff_stats looks names up once per page, whatever the number of calls", async () => {
    const s = h.sandbox.messaging;
    const staff = s.staff[1]!;
    // The statistics answer without names: the tool reads each page's staff list for them.
    h.sandbox.server.injectFault({
      path: "/v1/statistics/user",
      kind: "status",
      status: 200,
      body: { success: true, data: { statistics: {}, users: { [staff.id]: { inbox_count: 3, comment_count: 1, average_response_time: 60 } } } },
      times: 2,
    });
    const users = s.pages.map((p) => count(`/pages/${p.id}/users`));
    for (let i = 0; i < 2; i++) {
      const r = await h.call("get_staff_stats", {});
      expect(r.isError, r.text).toBe(false);
      expect(r.data.staff[0]).toMatchObject({ user_id: staff.id, name: staff.name });
    }
    expect(s.pages.map((p, i) => count(`/pages/${p.id}/users`) - users[i]!)).toEqual(s.pages.map(() => 1));
  });

  it("get_page_stats tags reads the tag list for unnamed tags once a minute", async () => {
    const page = h.sandbox.messaging.pages[0]!;
    const tag = h.sandbox.messaging.tags[page.id]![0]!;
    const before = count(`/pages/${page.id}/tags`);
    for (let i = 0; i < 2; i++) {
      h.sandbox.server.injectFault({
        path: `/pages/${page.id}/statistics/tags`,
        kind: "status",
        status: 200,
        body: { success: true, data: { categories: ["2026-11-20"], series: { [`tag_${tag.id}`]: [2] } }, data_today: { categories: [], series: {} }, tags: [] },
      });
      const r = await h.call("get_page_stats", { metric: "tags", page_ids: [page.id], since: "2026-11-20", until: "2026-11-20" });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.rows[0]).toMatchObject({ name: tag.text, net: 2 });
    }
    expect(count(`/pages/${page.id}/tags`) - before).toBeLessThanOrEqual(1);
  });

  it("completion and resource lists use the client's page list, not a page-list read each time", async () => {
    await h.client.listResources();
    const before = count("/v1/pages");
    for (const typed of ["t", "th", "tho", "thoi"]) {
      await h.client.complete({ ref: { type: "ref/resource", uri: "pancake://pages/{page_id}/tags" }, argument: { name: "page_id", value: typed } });
    }
    await h.client.listResources();
    expect(count("/v1/pages") - before).toBe(0);
  });
});
