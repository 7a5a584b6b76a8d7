import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { DatabaseSync } from "node:sqlite";

/**
 * The embedded database a tenant's shop index lives in: Node's own SQLite (node:sqlite), so the
 * package still installs with no dependency and nothing native to build. On disk for a desktop
 * server (one file per tenant, the user's alone), or a private temporary file SQLite deletes by
 * itself (a process's own index, and each hosted replica's copy of the shared one): either way the
 * rows are on disk and the process holds a bounded page cache, whatever the shop's size.
 */

const require = createRequire(import.meta.url);

/**
 * node:sqlite, loaded without the warning Node 22 prints on its first use ("SQLite is an
 * experimental feature"): the server's stderr is its log, and the module's API is what we test.
 */
function sqlite(): typeof import("node:sqlite") {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning instanceof Error ? warning.message : warning).includes("SQLite")) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return require("node:sqlite") as typeof import("node:sqlite");
  } finally {
    process.emitWarning = emit;
  }
}

/**
 * Page cache per database: what the process holds of its indexes, whatever their size (SQLite's
 * default is 2 MB). A temporary one is a tenant's own (hosted, one per tenant): smaller.
 */
const CACHE_KIB = { file: 8_192, temporary: 4_096 };
/**
 * An order's row is about 2.2 KB of JSON: at SQLite's 4 KB pages each takes a page of its own, at
 * 16 KB four fit in one (measured at 560,000 orders: 2.56 GB on disk at 4 KB, 1.81 GB at 16 KB).
 */
const PAGE_BYTES = 16_384;

/**
 * Opens (creating) the database at `file`, or a private temporary one when `file` is undefined.
 * WAL lets a second server on the same folder (Claude Desktop and Claude Code at once) read while
 * one writes; each commit is durable at the next checkpoint, which is all an index needs (a row
 * lost in a crash is read again).
 */
export function openDatabase(file: string | undefined): DatabaseSync {
  if (file !== undefined) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    chmodSync(dirname(file), 0o700);
    // Made the user's alone before SQLite writes a row to it (its journal files take its mode).
    closeSync(openSync(file, "a", 0o600));
    chmodSync(file, 0o600);
  }
  const { DatabaseSync } = sqlite();
  const db = new DatabaseSync(file ?? "");
  // Before the first table is made (an existing database keeps its own).
  db.exec(`PRAGMA page_size = ${PAGE_BYTES}`);
  if (file !== undefined) db.exec("PRAGMA journal_mode = WAL");
  db.exec(`PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -${file === undefined ? CACHE_KIB.temporary : CACHE_KIB.file}; PRAGMA temp_store = FILE`);
  return db;
}
