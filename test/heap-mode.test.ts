import { getHeapStatistics } from "node:v8";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { favourSize, whileReading } from "../src/heap-mode.js";

const usedMb = () => getHeapStatistics().used_heap_size / 2 ** 20;

// A stdio server's read of the shop index leaves its garbage to V8's defaults, which let it pile up
// to a limit sized for the machine; past 160 MB in use the heap is collected whole while the read runs.
it("collects a read's garbage once the heap in use passes its bound", async () => {
  favourSize();
  let garbage: unknown[] | undefined = [];
  let during = 0;
  await whileReading(async () => {
    // About 250 MB of short strings kept until dropped: garbage from then on.
    for (let i = 0; i < 250; i++) garbage!.push(Array.from({ length: 8_000 }, (_, k) => `row ${i} ${k} `.repeat(3)));
    expect(usedMb()).toBeGreaterThan(200);
    garbage = undefined;
    for (let waited = 0; waited < 3_000 && usedMb() > 160; waited += 50) await sleep(50);
    during = usedMb();
  });
  expect(during).toBeLessThan(160);
});
