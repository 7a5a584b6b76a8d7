import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileStore } from "../../src/shop-index/file-store.js";
import { type IndexMeta, NOTHING, OPEN, SCHEMA } from "../../src/shop-index/store.js";

// A read under way moves its state on in place while the file is written later (debounced, and
// after the folder is made): a copy that called read the spans read since its save, without their
// rows, made a restarted server answer "complete" with rows missing (seen in time-budget.test.ts).

describe("the index file", () => {
  it("keeps the read's state as of the save, not as it moved on before the write", async () => {
    const store = new FileStore<{ id: string }>(mkdtempSync(join(tmpdir(), "pancake-store-")), "orders-test", (error) => {
      throw error;
    });
    const meta: IndexMeta = { schema: SCHEMA, from: NOTHING, watermark: 100, asOf: 1, checkedAt: 1, reading: { span: [0, OPEN], started: 1, done: [[200, OPEN]] } };
    const rows = [{ id: "a" }];
    store.save(meta, rows, () => rows, false);
    // The read goes on: another span read, its rows not yet handed over.
    meta.reading!.done = [[0, OPEN]];
    meta.reading!.expected = 5;
    await store.flush();
    const loaded = await store.load();
    expect(loaded?.rows).toEqual([{ id: "a" }]);
    expect(loaded?.meta.reading).toEqual({ span: [0, OPEN], started: 1, done: [[200, OPEN]] });
  });
});
