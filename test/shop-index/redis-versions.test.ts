import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PosOrder } from "../../src/clients/schemas/pos.js";
import { Logger } from "../../src/log.js";
import { orderVersion } from "../../src/shop-index/order-rows.js";
import { type IndexMeta, type IndexStore, mergeMeta, NOTHING, OPEN, SCHEMA, type Span } from "../../src/shop-index/store.js";
import { openRedis } from "../../src/state/open.js";
import { withIndexWrites } from "../../src/state/redis-index.js";
import type { RedisState } from "../../src/state/redis.js";
import { sealKey } from "../../src/state/seal.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";

// The shared index's write, in a real Redis: a row is kept when newer than the one stored (an
// order's status history within one second), or as new and different; the same row again writes
// nothing. A write Redis refuses is reported to the call that made it and sent again later.

const meta: IndexMeta = { schema: SCHEMA, from: null, watermark: 0, asOf: 0, checkedAt: 0 };
const identify = (o: PosOrder) => ({ id: String(o.id), version: orderVersion(o) });
const at = "2026-11-20T09:15:42";
const order = (status: number, history: number[], extra: object = {}) =>
  ({ id: 88, status, updated_at: at, status_history: history.map((s) => ({ status: s, updated_at: at })), ...extra }) as unknown as PosOrder;

let redis: RedisServer;
const states: RedisState[] = [];
let n = 0;

/** What a replica's table is handed by a load or a pull. */
function into(): { rows: PosOrder[]; clear(): void; put(rows: readonly PosOrder[]): void } {
  const rows: PosOrder[] = [];
  return { rows, clear: () => rows.splice(0), put: (batch) => void rows.push(...batch) };
}

/** Two replicas' stores of one index (each its own connection). */
async function replicas(): Promise<[IndexStore<PosOrder>, IndexStore<PosOrder>]> {
  const key = `orders-test-${++n}`;
  const open = async () => {
    const state = await openRedis(redis.url, new Logger("error", false), 5000);
    states.push(state);
    return state.scope("versions", sealKey(["versions"])).indexStore!<PosOrder>(key, identify);
  };
  return [await open(), await open()];
}

/** A field of the index in Redis: its meta's write sequence, or the order's row. */
async function stored<T>(read: (client: Redis, key: (suffix: string) => string) => Promise<T>): Promise<T> {
  const client = new Redis(redis.url);
  try {
    const keys = await client.keys(`pmcp:{versions}:ix:orders-test-${n}:*`);
    return await read(client, (suffix) => keys.find((k) => k.endsWith(suffix))!);
  } finally {
    client.disconnect();
  }
}
const writeSeq = () => stored(async (client, key) => Number(await client.hget(key(":meta"), "seq")));
const rowInRedis = () => stored(async (client, key) => JSON.parse((await client.hget(key(":rows"), "88"))!) as PosOrder);

const config = async (maxmemory: string) => {
  const client = new Redis(redis.url);
  try {
    await client.config("SET", "maxmemory", maxmemory);
  } finally {
    client.disconnect();
  }
};

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(states.map((s) => s.close()));
  await redis?.stop();
});

describe("the shared index's writes (real Redis)", () => {
  it("keeps the later of two changes within one second, and writes nothing for one delivered again", async () => {
    const [a, b] = await replicas();
    a.save(meta, [order(0, [0])], true);
    await a.flush();
    a.save(meta, [order(1, [0, 1])], false);
    a.save(meta, [order(12, [0, 1, 12])], false);
    await a.flush();
    const seq = await writeSeq();
    // The first change again, from either replica: older by its history, though of the same second.
    a.save(meta, [order(1, [0, 1])], false);
    b.save(meta, [order(1, [0, 1])], false);
    // The later one again: as new and the same.
    b.save(meta, [order(12, [0, 1, 12])], false);
    await Promise.all([a.flush(), b.flush()]);
    expect((await rowInRedis()).status).toBe(12);
    expect(await writeSeq()).toBe(seq);
    // As new but different (a refresh reading a change of the same second that moved no status): kept.
    b.save(meta, [order(12, [0, 1, 12], { note: "gọi trước khi giao" })], false);
    await b.flush();
    expect(await rowInRedis()).toMatchObject({ status: 12, note: "gọi trước khi giao" });
    expect(await writeSeq()).toBe(seq + 1);
  });

  it("writes a read's state as of its save, and reads back its open ends and parts as written", async () => {
    const [a, b] = await replicas();
    const started = { span: [0, OPEN] as Span, started: 1_764_380_000_123, done: [] as Span[] };
    const reading = { ...meta, from: NOTHING, reading: started };
    a.save(reading, [order(1, [0, 1])], true);
    // The read goes on before the write is sent: a span read whose rows the next save brings.
    reading.reading = { ...started, done: [[0, OPEN]] };
    started.done.push([5, OPEN]);
    await a.flush();
    // Redis's cjson merges the meta: 14 digits, and an empty array written as {}.
    expect(await b.load(into())).toMatchObject({ from: NOTHING, reading: { span: [0, OPEN], started: 1_764_380_000_123, done: [] } });
    a.save({ ...reading, reading: { ...started, done: [[1_764_300_000, OPEN]] } }, [], false);
    await a.flush();
    expect((await b.pull(into())) as object).toMatchObject({ meta: { reading: { done: [[1_764_300_000, OPEN]] } } });
  });

  it("keeps the spans read by creation and a read by creation as written, and merges two replicas' spans", async () => {
    const [a, b] = await replicas();
    const byCreation = { by: "inserted" as const, span: [1_761_930_000, 1_764_521_999] as Span, started: 1_764_380_000_123, done: [] as Span[] };
    a.save({ ...meta, from: NOTHING, created: [[1_759_000_000, OPEN]], reading: byCreation }, [order(1, [0, 1])], true);
    await a.flush();
    const loaded = (await b.load(into()))!;
    expect(loaded).toMatchObject({ from: NOTHING, created: [[1_759_000_000, OPEN]], reading: { by: "inserted", span: byCreation.span, done: [] } });
    // Two replicas' spans read by creation join where they meet; none read, none kept.
    const other: IndexMeta = { ...meta, from: NOTHING, created: [[1_700_000_000, 1_758_999_999]] };
    expect(mergeMeta(loaded, other).created).toEqual([[1_700_000_000, OPEN]]);
    expect(mergeMeta({ ...meta, from: NOTHING }, { ...meta, from: NOTHING }).created).toBeUndefined();
  });

  it("reports a write Redis refuses to the call that made it, and sends it again once Redis takes writes", async () => {
    const [a, b] = await replicas();
    a.save(meta, [order(1, [0, 1])], true);
    await a.flush();
    const loaded = into();
    await b.load(loaded);
    expect(loaded.rows).toMatchObject([{ status: 1 }]);
    await config("1");
    let refused: Awaited<ReturnType<typeof withIndexWrites>>["writes"];
    try {
      ({ writes: refused } = await withIndexWrites(async () => {
        a.save(meta, [order(12, [0, 1, 12])], false);
        await a.flush();
      }));
    } finally {
      await config("0");
    }
    expect(String(refused.failed)).toMatch(/OOM|maxmemory/i);
    expect(refused.stored.size).toBe(0);
    expect((await rowInRedis()).status).toBe(1);
    // A connection holds back from Redis for a moment after a failed command.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    const { writes } = await withIndexWrites(() => a.flush());
    expect(writes.failed).toBeUndefined();
    expect([...writes.stored]).toEqual(["88"]);
    expect((await rowInRedis()).status).toBe(12);
    const pulledRows = into();
    expect(await b.pull(pulledRows)).toMatchObject({ replaced: false });
    expect(pulledRows.rows).toMatchObject([{ status: 12 }]);
    // Sent once: nothing left to send.
    expect((await withIndexWrites(() => a.flush())).writes.stored.size).toBe(0);
  });
});
