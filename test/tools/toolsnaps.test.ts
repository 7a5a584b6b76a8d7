import { describe, expect, it } from "vitest";
import { allTools } from "../../src/tools/index.js";
import { useHarness } from "../helpers/harness.js";

// The schemas are the public contract: a change to any of them must be deliberate, so each
// tool's tools/list entry is kept in test/__toolsnaps__ and compared (CI never rewrites them).
describe("tool schema snapshots", () => {
  const h = useHarness();

  it("lists every registered tool", async () => {
    const { tools } = await h.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(allTools.map((t) => t.name).sort());
  });

  it.each(allTools.map((t) => t.name))("%s matches its snapshot", async (name) => {
    const { tools } = await h.client.listTools();
    const tool = tools.find((t) => t.name === name);
    await expect(`${JSON.stringify(tool, null, 2)}\n`).toMatchFileSnapshot(`../__toolsnaps__/${name}.json`);
  });
});
