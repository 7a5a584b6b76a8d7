import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../helpers/harness.js";

// The index kept on disk, as the desktop install keeps it: a restarted server starts warm, its
// files are the user's alone and hold no credential, and a damaged or foreign file is read afresh.

const CLI = new URL("../../dist/cli.js", import.meta.url).pathname;
const SENTINELS = { userToken: "UT-SENTINEL-4c1f9e", posApiKey: "POS-SENTINEL-77ab20", pageTokenPrefix: "PT-SENTINEL-" };
const dir = mkdtempSync(join(tmpdir(), "pancake-index-"));
// Groupings read orders (into the index), not the POS's statistics.
const onDisk = (folder = dir) => ({ posStatistics: false, index: { mode: "disk" as const, dir: folder, refreshSeconds: 0, maxRows: 300_000, preload: false } });

let upstream: Harness;
beforeAll(async () => {
  upstream = await startHarness({ sandbox: { ratePerSecond: 10_000, credentials: SENTINELS }, config: onDisk() });
});
afterAll(() => upstream.close());

/** A server as a desktop client starts it: on the same shop, the same folder. */
async function restarted(folder = dir): Promise<Harness> {
  return startHarness({ shared: upstream.sandbox, config: onDisk(folder) });
}

const orderReads = () => upstream.sandbox.server.requests.filter((q) => q.path.endsWith("/orders")).length;
/** The database and its journal files, and the list of what a tenant keeps. */
const files = (folder = dir) => readdirSync(folder).filter((f) => f.startsWith("shop-index.sqlite") || f.startsWith("kept-"));
const database = join(dir, "shop-index.sqlite");
/** When the database or its journal last changed. */
const written = () => Math.max(...files().filter((f) => f.startsWith("shop-index")).map((f) => statSync(join(dir, f)).mtimeMs));

describe("the shop index on disk", () => {
  let first: Record<string, unknown>;

  it("is written to the user's folder, readable by the user alone, with no token or key in it", async () => {
    first = (await upstream.call("search_orders", { group_by: ["status"] })).data;
    await upstream.call("list_conversations", { awaiting_reply: true, limit: 5 });
    // Closing writes what is pending (the server's clients close with it).
    await upstream.close();
    upstream = await startHarness({ sandbox: { ratePerSecond: 10_000, credentials: SENTINELS }, config: onDisk() });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(files()).toContain("shop-index.sqlite");
    for (const name of files()) {
      expect(statSync(join(dir, name)).mode & 0o777, name).toBe(0o600);
      const text = readFileSync(join(dir, name)).toString("latin1");
      for (const secret of [SENTINELS.userToken, SENTINELS.posApiKey, SENTINELS.pageTokenPrefix]) expect(text, name).not.toContain(secret);
      for (const secret of [SENTINELS.userToken, SENTINELS.posApiKey]) expect(name).not.toContain(secret);
    }
  });

  it("starts warm after a restart: a refresh and a check, not every page again", async () => {
    // The first server's sandbox is gone too: a new one, at another port, is another upstream,
    // whose index starts empty.
    const cold = await restarted();
    try {
      upstream.sandbox.server.resetRecords();
      const r = await cold.call("search_orders", { group_by: ["status"] });
      expect(r.isError, r.text).toBe(false);
      expect(orderReads()).toBeGreaterThan(3);
      await cold.close();
      const warm = await restarted();
      upstream.sandbox.server.resetRecords();
      const again = await warm.call("search_orders", { group_by: ["status"] });
      expect(again.data.groups).toEqual(r.data.groups);
      expect(orderReads()).toBeLessThanOrEqual(2);
      await warm.close();
      expect(first).toBeDefined();
    } finally {
      await cold.close().catch(() => {});
    }
  });

  it("reads the shop afresh when its database is damaged, cut short or another account's", async () => {
    const truth = (await upstream.call("search_orders", { group_by: ["carrier"] })).data;
    const flushed = await restarted();
    await flushed.call("search_orders", { group_by: ["carrier"] });
    await flushed.close();
    const good = readFileSync(database);
    // Another account's: a folder whose database holds another upstream's shop (another index).
    const elsewhere = mkdtempSync(join(tmpdir(), "pancake-index-other-"));
    const other = await startHarness({ sandbox: { ratePerSecond: 10_000 }, config: onDisk(elsewhere) });
    await other.call("search_orders", { group_by: ["carrier"] });
    await other.close();
    for (const [label, body] of [
      ["garbage", Buffer.from("not a database at all, and longer than SQLite's header of a hundred bytes, to be read as one")],
      ["cut short", good.subarray(0, Math.floor(good.length / 2))],
      ["another account's", readFileSync(join(elsewhere, "shop-index.sqlite"))],
    ] as const) {
      for (const journal of ["-wal", "-shm"]) rmSync(`${database}${journal}`, { force: true });
      writeFileSync(database, body);
      const server = await restarted();
      upstream.sandbox.server.resetRecords();
      const r = await server.call("search_orders", { group_by: ["carrier"] });
      await server.close();
      expect(r.isError, `${label}: ${r.text}`).toBe(false);
      expect(r.data.groups, label).toEqual(truth.groups);
      expect(orderReads(), label).toBeGreaterThan(3);
    }
  });

  it("writes to its database only when a refresh finds a change", async () => {
    const ask = async () => {
      const server = await restarted();
      const r = await server.call("search_orders", { group_by: ["status"] });
      await server.close();
      expect(r.isError, r.text).toBe(false);
      return r.data as { total: number; groups: { status: string; orders: number }[] };
    };
    await ask();
    const before = written();
    // Loaded, refreshed (nothing new) and checked: the database already says all of it.
    await ask();
    expect(written()).toBe(before);
    // An order moved to canceled as the POS moves it: its update time moves, the refresh reads it.
    const order = upstream.sandbox.pos.orders.find((o) => !o.is_removed && o.status === 1)!;
    const now = new Date().toISOString().slice(0, 19);
    Object.assign(order, { status: 6, status_name: "Đã hủy", updated_at: now, last_update_status_at: now });
    order.status_history.push({ ...order.status_history.at(-1)!, status: 6, updated_at: now });
    const after = await ask();
    expect(written()).toBeGreaterThan(before);
    const restartedAgain = await ask();
    expect(restartedAgain.groups).toEqual(after.groups);
    const canceled = upstream.sandbox.pos.orders.filter((o) => !o.is_removed && o.status === 6).length;
    expect(restartedAgain.groups.find((g) => g.status === "canceled")?.orders).toBe(canceled);
  });

  it("says where it is and how big, and clears, from the command line", async () => {
    const run = promisify(execFile);
    const env = { ...process.env, PANCAKE_INDEX_DIR: dir };
    const info = await run(process.execPath, [CLI, "index", "info"], { env });
    expect(info.stdout).toContain(dir);
    expect(info.stdout).toMatch(/index file\(s\)/);
    const cleared = await run(process.execPath, [CLI, "index", "clear"], { env });
    expect(cleared.stdout).toMatch(/removed \d+ shop index file\(s\)/);
    expect(files()).toEqual([]);
    const wrong = await run(process.execPath, [CLI, "index", "wipe"], { env }).catch((error: { stderr: string; code: number }) => error);
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringContaining("info or clear") });
  });
});
