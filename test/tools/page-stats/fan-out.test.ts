import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/clients/errors.js";
import { eachPage } from "../../../src/tools/page-stats/fan-out.js";

describe("eachPage", () => {
  it("names a page the account turns out not to have by page_ids and its id, not by a position of the resolved list", async () => {
    // The caller wrote ["Mây Kids", "112233445566778", "999"]: the first two are one page, so the
    // resolved list is ["112233445566778", "999"], where 999 sits at 1, not at the caller's 2.
    const resolved = ["112233445566778", "999"];
    const run = eachPage({ progress: async () => {} }, resolved, "test", async (pageId) => {
      if (pageId === "999") throw new InputError("page_id", "999 is not a page of this account", "Use a page id or name: 112233445566778 (Mây Kids).");
      return pageId;
    });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe("page_ids");
    expect((error as InputError).message).toMatch(/^page_ids: 999 is not a page of this account/);
  });
});
