import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { IndexMeta, RowTable, Select, TableShape } from "./store.js";

/**
 * Bumped when the tables' layout changes: a database of another layout is emptied and made anew
 * (the index reads the upstream again, as for any copy it cannot use).
 */
const LAYOUT = 1;

/** Makes the tables of `db` (once per database). */
export function prepareTables(db: DatabaseSync): void {
  const layout = (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
  if (layout !== LAYOUT) db.exec("DROP TABLE IF EXISTS orders; DROP TABLE IF EXISTS conversations; DROP TABLE IF EXISTS meta;");
  for (const table of ["orders", "conversations"]) {
    // A row's JSON apart from its heavy parts, and the columns scans range on and checks count by.
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (
      ix TEXT NOT NULL, id TEXT NOT NULL, version REAL NOT NULL, updated INTEGER, inserted INTEGER,
      listed INTEGER NOT NULL, body TEXT NOT NULL, extra TEXT);
    CREATE UNIQUE INDEX IF NOT EXISTS ${table}_id ON ${table} (ix, id);
    CREATE INDEX IF NOT EXISTS ${table}_updated ON ${table} (ix, updated);
    CREATE INDEX IF NOT EXISTS ${table}_inserted ON ${table} (ix, inserted);`);
  }
  db.exec("CREATE TABLE IF NOT EXISTS meta (ix TEXT PRIMARY KEY, json TEXT NOT NULL)");
  if (layout !== LAYOUT) db.exec(`PRAGMA user_version = ${LAYOUT}`);
  // A file cut short or damaged opens; reading each table through fails now rather than mid-answer.
  for (const table of ["orders", "conversations", "meta"]) db.prepare(`SELECT count(*) FROM ${table}`).get();
}

type Stored = { body: string; extra: string | null };

/** What of a meta lasts past a load (when it was refreshed and checked is forgotten): a refresh that changed nothing else writes nothing. */
const lasting = (meta: IndexMeta) => JSON.stringify([meta.schema, meta.from, meta.watermark, meta.dirtyAt ?? null, meta.reading ?? null]);

/** One index's rows in the table of their kind, named `ix` (a hash: never a credential). */
export class SqliteTable<R> implements RowTable<R> {
  private count: number;
  /** What of the meta lasts past a load, as last kept (see keep()); null: not known yet. */
  private kept: string | undefined | null = null;
  private readonly insert: StatementSync;
  private readonly update: StatementSync;
  private readonly one: StatementSync;
  private readonly scans = new Map<string, StatementSync>();

  constructor(
    private readonly db: DatabaseSync,
    private readonly shape: TableShape<R>,
    private readonly ix: string,
  ) {
    const t = shape.table;
    this.insert = db.prepare(`INSERT OR IGNORE INTO ${t} (ix, id, version, updated, inserted, listed, body, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    this.update = db.prepare(
      `UPDATE ${t} SET version = ?, updated = ?, inserted = ?, listed = ?, body = ?, extra = ? WHERE ix = ? AND id = ? AND version <= ? AND (body IS NOT ? OR extra IS NOT ?)`,
    );
    this.one = db.prepare(`SELECT body, extra FROM ${t} WHERE ix = ? AND id = ?`);
    this.count = (db.prepare(`SELECT count(*) AS n FROM ${t} WHERE ix = ?`).get(ix) as { n: number }).n;
  }

  get size(): number {
    return this.count;
  }

  get(id: string): R | undefined {
    const stored = this.one.get(this.ix, id) as Stored | undefined;
    return stored && this.row(stored, true);
  }

  put(rows: readonly R[]): R[] {
    return this.write(rows, false);
  }

  overwrite(rows: readonly R[]): R[] {
    return this.write(rows, true);
  }

  retain(seen: ReadonlySet<string>): number {
    const gone: string[] = [];
    for (const { id } of this.db.prepare(`SELECT id FROM ${this.shape.table} WHERE ix = ?`).iterate(this.ix) as Iterable<{ id: string }>) if (!seen.has(id)) gone.push(id);
    const drop = this.db.prepare(`DELETE FROM ${this.shape.table} WHERE ix = ? AND id = ?`);
    this.transaction(() => {
      for (const id of gone) drop.run(this.ix, id);
    });
    this.count -= gone.length;
    return gone.length;
  }

  private write(rows: readonly R[], force: boolean): R[] {
    if (rows.length === 0) return [];
    const changed: R[] = [];
    this.transaction(() => {
      for (const row of rows) {
        const { shape, ix } = this;
        const [body, extra] = this.split(row);
        const id = shape.id(row);
        const version = shape.version(row);
        const updated = shape.updated(row) ?? null;
        const inserted = shape.inserted(row) ?? null;
        const listed = shape.listed(row) ? 1 : 0;
        if (this.insert.run(ix, id, version, updated, inserted, listed, body, extra).changes > 0) {
          this.count++;
          changed.push(row);
        } else if (this.update.run(version, updated, inserted, listed, body, extra, ix, id, force ? Number.MAX_VALUE : version, body, extra).changes > 0) changed.push(row);
      }
    });
    return changed;
  }

  private transaction(work: () => void): void {
    this.db.exec("BEGIN");
    try {
      work();
      this.db.exec("COMMIT");
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }

  *scan(select: Select = {}): IterableIterator<R> {
    const by = select.by ?? "updated";
    const ranged = [select.from !== undefined ? `${by} >= ?` : "", select.to !== undefined ? `${by} <= ?` : ""].filter(Boolean);
    const full = select.full ?? false;
    const sql = `SELECT body${full ? ", extra" : ""} FROM ${this.shape.table} WHERE ix = ?${ranged.map((r) => ` AND ${r}`).join("")}`;
    const statement = this.scans.get(sql) ?? this.db.prepare(sql);
    this.scans.set(sql, statement);
    const args = [this.ix, ...(select.from !== undefined ? [select.from] : []), ...(select.to !== undefined ? [select.to] : [])];
    for (const stored of statement.iterate(...args)) yield this.row(stored as Stored, full);
  }

  countListed(since: number | null, until: number): number {
    const t = this.shape.table;
    const query =
      since === null
        ? this.db.prepare(`SELECT count(*) AS n FROM ${t} WHERE ix = ? AND listed = 1 AND updated <= ?`).get(this.ix, until)
        : this.db.prepare(`SELECT count(*) AS n FROM ${t} WHERE ix = ? AND listed = 1 AND updated >= ? AND updated <= ?`).get(this.ix, since, until);
    return (query as { n: number }).n;
  }

  meta(): IndexMeta | undefined {
    const stored = this.db.prepare("SELECT json FROM meta WHERE ix = ?").get(this.ix) as { json: string } | undefined;
    if (!stored) return undefined;
    try {
      const meta = JSON.parse(stored.json) as IndexMeta;
      this.kept = lasting(meta);
      return meta;
    } catch {
      return undefined;
    }
  }

  keep(meta: IndexMeta | undefined): void {
    const kept = meta && lasting(meta);
    if (kept === this.kept) return;
    this.kept = kept;
    if (meta === undefined) this.db.prepare("DELETE FROM meta WHERE ix = ?").run(this.ix);
    else this.db.prepare("INSERT INTO meta (ix, json) VALUES (?, ?) ON CONFLICT (ix) DO UPDATE SET json = excluded.json").run(this.ix, JSON.stringify(meta));
  }

  clear(): void {
    this.db.prepare(`DELETE FROM ${this.shape.table} WHERE ix = ?`).run(this.ix);
    this.keep(undefined);
    this.count = 0;
  }

  /** The row's JSON without its heavy fields, and those apart (null when it has none). */
  private split(row: R): [string, string | null] {
    const light: Record<string, unknown> = {};
    const heavy: Record<string, unknown> = {};
    let any = false;
    for (const [key, value] of Object.entries(row as Record<string, unknown>)) {
      if (this.shape.heavy.includes(key)) {
        heavy[key] = value;
        any = true;
      } else light[key] = value;
    }
    return [JSON.stringify(light), any ? JSON.stringify(heavy) : null];
  }

  private row(stored: Stored, full: boolean): R {
    const row = JSON.parse(stored.body) as Record<string, unknown>;
    if (full && stored.extra) Object.assign(row, JSON.parse(stored.extra));
    return row as R;
  }
}
