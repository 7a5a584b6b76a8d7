import { createWriteStream } from "node:fs";
import { chmod, mkdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { createGzip, gunzip } from "node:zlib";
import type { IndexMeta, IndexStore, Stored } from "./store.js";

const unzip = promisify(gunzip);
/** Rows turned into text at a time: a whole index at once held the process for a second or more. */
const ROWS_A_STEP = 2_000;

/** Writes wait this long for more changes: a refresh and its check write once. */
const DEBOUNCE_MS = 2_000;

/** What of an index's meta a load keeps (it forgets when the copy was refreshed and checked). */
const kept = (meta: IndexMeta) => JSON.stringify([meta.schema, meta.from, meta.watermark, meta.dirtyAt ?? null, meta.reading ?? null]);

/**
 * An index kept in one gzip file in the user's cache folder (no server to install, nothing
 * native), written whole and atomically (a temporary file renamed over the old one), readable by
 * the user alone: the file 0600, its folder 0700. It holds customers' names and phones, and never a
 * token or key: its name is a hash. A file that does not unzip, parse, or name this index's key
 * (half-written, edited, another account's) is no copy: the index reads the upstream again.
 */
export class FileStore<R> implements IndexStore<R> {
  private readonly path: string;
  private pending: { meta: IndexMeta; all: () => readonly R[] } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** kept() of the copy on disk, or being written: undefined when unknown (none yet, a failed write). */
  private onDisk: string | undefined;

  constructor(
    private readonly dir: string,
    private readonly key: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.path = join(dir, `${key}.json.gz`);
  }

  async load(): Promise<Stored<R> | undefined> {
    try {
      const parsed = JSON.parse((await unzip(await readFile(this.path))).toString("utf8")) as { key?: unknown; meta?: IndexMeta; rows?: unknown };
      if (parsed.key !== this.key || typeof parsed.meta !== "object" || !Array.isArray(parsed.rows)) return undefined;
      this.onDisk = kept(parsed.meta);
      return { meta: parsed.meta, rows: parsed.rows as R[] };
    } catch {
      return undefined;
    }
  }

  /**
   * A save that changes no row and nothing a load keeps (a refresh that found nothing new, an
   * agreeing check) writes nothing: the copy on disk already says it, and rewriting it whole costs
   * seconds of CPU at a hundred thousand rows (npm run bench -- --only="data scale").
   */
  save(meta: IndexMeta, changed: readonly R[], all: () => readonly R[], replaced: boolean): void {
    const state = kept(meta);
    if (!replaced && changed.length === 0 && state === this.onDisk) return;
    this.onDisk = state;
    // As of now: the index moves its read's state on in place, and rows come later still (a
    // superset), never fewer than the spans this meta calls read.
    this.pending = { meta: structuredClone(meta), all };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), DEBOUNCE_MS);
    this.timer.unref();
  }

  flush(): Promise<void> {
    clearTimeout(this.timer);
    const pending = this.pending;
    this.pending = undefined;
    if (pending) {
      this.writing = this.writing.then(() =>
        this.write(pending.meta, pending.all()).catch((error: unknown) => {
          this.onDisk = undefined;
          this.onError(error);
        }),
      );
    }
    return this.writing;
  }

  async clear(): Promise<void> {
    clearTimeout(this.timer);
    this.pending = undefined;
    this.onDisk = undefined;
    await this.writing;
    await rm(this.path, { force: true });
  }

  /** The same JSON as one stringify of {key, meta, rows}, made a few thousand rows at a time so answers go on meanwhile. */
  private async write(meta: IndexMeta, rows: readonly R[]): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    const key = this.key;
    async function* text() {
      yield `{"key":${JSON.stringify(key)},"meta":${JSON.stringify(meta)},"rows":[`;
      for (let i = 0; i < rows.length; i += ROWS_A_STEP) {
        yield `${i ? "," : ""}${rows.slice(i, i + ROWS_A_STEP).map((row) => JSON.stringify(row)).join(",")}`;
        await new Promise((resolve) => setImmediate(resolve));
      }
      yield "]}";
    }
    const temporary = `${this.path}.${process.pid}.tmp`;
    await pipeline(text(), createGzip(), createWriteStream(temporary, { mode: 0o600 }));
    await rename(temporary, this.path);
  }
}
