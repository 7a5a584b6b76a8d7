import type { DatabaseSync, StatementSync } from "node:sqlite";
import { type IndexMeta, JOIN_HOW, type Joined, type Linked, type RowTable, type Select, type Tallied, type TableShape } from "./store.js";

/**
 * Bumped when the tables' layout changes: a database of another layout is emptied and made anew
 * (the index reads the upstream again, as for any copy it cannot use).
 */
const LAYOUT = 3;

/** Readies `db` for indexes (once per database); throws when it cannot be read through. */
export function prepareTables(db: DatabaseSync): void {
  const layout = (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
  const tables = () => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
  if (layout !== LAYOUT) {
    for (const name of tables()) db.exec(`DROP TABLE "${name.replaceAll('"', '""')}"`);
    db.exec(`PRAGMA user_version = ${LAYOUT}`);
  }
  db.exec("CREATE TABLE IF NOT EXISTS meta (ix TEXT PRIMARY KEY, json TEXT NOT NULL)");
  // A file cut short or damaged opens; reading each table through fails now rather than mid-answer.
  for (const name of tables()) db.prepare(`SELECT count(*) FROM "${name.replaceAll('"', '""')}"`).get();
}

type Stored = { body: string; extra: string | null };

/** What of a meta lasts past a load (when it was refreshed and checked is forgotten): a refresh that changed nothing else writes nothing. */
const lasting = (meta: IndexMeta) => JSON.stringify([meta.schema, meta.from, meta.watermark, meta.dirtyAt ?? null, meta.created ?? null, meta.reading ?? null]);

const HOW_RANK = Object.keys(JOIN_HOW);
/** The strongest way a row is reached: its key's first letter, ranked as JOIN_HOW lists them (1 strongest). */
const RANK = `instr('${HOW_RANK.join("")}', substr(ok.key, 1, 1))`;
const howOf = (rank: unknown) => JOIN_HOW[HOW_RANK[Number(rank) - 1] as keyof typeof JOIN_HOW];

/**
 * One index's rows in the table of their kind, named `ix` (a hash: never a credential). Beside each
 * row's JSON: the columns scans range on and queries count by, and its join keys in a table of
 * their own (`<table>_keys`), so that chats and orders are joined by SQLite, not in the heap.
 */
export class SqliteTable<R> implements RowTable<R> {
  private count: number;
  /** What of the meta lasts past a load, as last kept (see keep()); null: not known yet. */
  private kept: string | undefined | null = null;
  private readonly insert: StatementSync;
  private readonly update: StatementSync;
  private readonly one: StatementSync;
  private readonly dropKeys: StatementSync;
  private readonly addKey: StatementSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly columns: [string, (row: R) => string | number | undefined][];

  constructor(
    private readonly db: DatabaseSync,
    private readonly shape: TableShape<R>,
    private readonly ix: string,
  ) {
    const t = shape.table;
    this.columns = Object.entries(shape.columns);
    const extra = this.columns.map(([name]) => `, ${name}`).join("");
    // A row's JSON apart from its heavy parts, and the columns scans range on and queries count by.
    db.exec(`CREATE TABLE IF NOT EXISTS ${t} (
      ix TEXT NOT NULL, id TEXT NOT NULL, version REAL NOT NULL, updated INTEGER, inserted INTEGER,
      listed INTEGER NOT NULL, body TEXT NOT NULL, extra TEXT${extra});
    CREATE UNIQUE INDEX IF NOT EXISTS ${t}_id ON ${t} (ix, id);
    CREATE INDEX IF NOT EXISTS ${t}_updated ON ${t} (ix, updated);
    CREATE INDEX IF NOT EXISTS ${t}_inserted ON ${t} (ix, inserted);
    CREATE TABLE IF NOT EXISTS ${t}_keys (ix TEXT NOT NULL, id TEXT NOT NULL, key TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS ${t}_keys_key ON ${t}_keys (key, ix);
    CREATE INDEX IF NOT EXISTS ${t}_keys_id ON ${t}_keys (ix, id);`);
    const places = this.columns.map(() => ", ?").join("");
    const sets = this.columns.map(([name]) => `, ${name} = ?`).join("");
    this.insert = db.prepare(`INSERT OR IGNORE INTO ${t} (ix, id, version, updated, inserted, listed, body, extra${extra}) VALUES (?, ?, ?, ?, ?, ?, ?, ?${places})`);
    this.update = db.prepare(
      `UPDATE ${t} SET version = ?, updated = ?, inserted = ?, listed = ?, body = ?, extra = ?${sets} WHERE ix = ? AND id = ? AND version <= ? AND (body IS NOT ? OR extra IS NOT ?)`,
    );
    this.one = db.prepare(`SELECT body, extra FROM ${t} WHERE ix = ? AND id = ?`);
    this.dropKeys = db.prepare(`DELETE FROM ${t}_keys WHERE ix = ? AND id = ?`);
    this.addKey = db.prepare(`INSERT INTO ${t}_keys (ix, id, key) VALUES (?, ?, ?)`);
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
    for (const { id } of this.prepared(`SELECT id FROM ${this.shape.table} WHERE ix = ?`).iterate(this.ix) as Iterable<{ id: string }>) if (!seen.has(id)) gone.push(id);
    const drop = this.prepared(`DELETE FROM ${this.shape.table} WHERE ix = ? AND id = ?`);
    this.transaction(() => {
      for (const id of gone) {
        drop.run(this.ix, id);
        this.dropKeys.run(this.ix, id);
      }
    });
    this.count -= gone.length;
    return gone.length;
  }

  *scan(select: Select = {}): IterableIterator<R> {
    const full = select.full ?? false;
    const [where, args] = this.range(select, "");
    const statement = this.prepared(`SELECT body${full ? ", extra" : ""} FROM ${this.shape.table} WHERE ix = ?${where}`);
    for (const stored of statement.iterate(this.ix, ...args)) yield this.row(stored as Stored, full);
  }

  countListed(since: number | null, until: number, by: "updated" | "inserted" = "updated"): number {
    const t = this.shape.table;
    const query =
      since === null
        ? this.prepared(`SELECT count(*) AS n FROM ${t} WHERE ix = ? AND listed = 1 AND ${by} <= ?`).get(this.ix, until)
        : this.prepared(`SELECT count(*) AS n FROM ${t} WHERE ix = ? AND listed = 1 AND ${by} >= ? AND ${by} <= ?`).get(this.ix, since, until);
    return (query as { n: number }).n;
  }

  *join(other: RowTable<unknown>, mine: Select = {}, theirs: Select = {}): IterableIterator<Joined> {
    if (!(other instanceof SqliteTable) || other.db !== this.db) throw new Error("a join needs both indexes in one database");
    const [a, b] = [this.shape.table, other.shape.table];
    const [mineWhere, mineArgs] = this.range(mine, "c.");
    const [theirsWhere, theirsArgs] = other.range(theirs, "o.");
    const columns = other.columns.map(([name]) => `, o.${name} AS ${name}`).join("");
    // The strongest way each chat reaches each order.
    const statement = this.prepared(
      `SELECT ck.id AS chat, o.id AS ord, min(${RANK}) AS how, o.inserted AS inserted${columns}
       FROM ${a}_keys ck
       JOIN ${a} c ON c.ix = ck.ix AND c.id = ck.id
       JOIN ${b}_keys ok ON ok.key = ck.key AND ok.ix = ?
       JOIN ${b} o ON o.ix = ok.ix AND o.id = ok.id
       WHERE ck.ix = ? AND o.listed = 1${mineWhere}${theirsWhere}
       GROUP BY ck.id, o.id`,
    );
    for (const found of statement.iterate(other.ix, this.ix, ...mineArgs, ...theirsArgs) as Iterable<Record<string, string | number | null>>) {
      const { chat, ord, how, inserted, ...rest } = found;
      yield {
        chat: String(chat),
        order: String(ord),
        how: howOf(how),
        inserted: inserted === null ? null : Number(inserted),
        columns: rest,
      };
    }
  }

  linked(keys: readonly string[], select: Select = {}): Linked[] {
    const wanted = [...new Set(keys)];
    if (wanted.length === 0) return [];
    const t = this.shape.table;
    const [where, args] = this.range(select, "o.");
    const columns = this.columns.map(([name]) => `, o.${name} AS ${name}`).join("");
    // By the keys' index (key, ix): a chat's few keys reach its orders without a scan of the table.
    const statement = this.prepared(
      `SELECT o.id AS ord, min(${RANK}) AS how, o.inserted AS inserted${columns}
       FROM ${t}_keys ok JOIN ${t} o ON o.ix = ok.ix AND o.id = ok.id
       WHERE ok.key IN (${wanted.map(() => "?").join(", ")}) AND ok.ix = ? AND o.listed = 1${where}
       GROUP BY o.id`,
    );
    return (statement.all(...wanted, this.ix, ...args) as Record<string, string | number | null>[]).map(({ ord, how, inserted, ...rest }) => ({
      order: String(ord),
      how: howOf(how),
      inserted: inserted === null ? null : Number(inserted),
      columns: rest,
    }));
  }

  tally(by: readonly string[], sum: string, select: Select = {}, not?: [string, readonly number[]]): Tallied[] {
    // Column names go into the statement: only the kind's own.
    for (const name of [...by, sum, ...(not ? [not[0]] : [])]) if (!(name in this.shape.columns)) throw new Error(`no column ${name} in ${this.shape.table}`);
    const [where, args] = this.range(select, "");
    const excluded = not?.[1].length ? ` AND (${not[0]} IS NULL OR ${not[0]} NOT IN (${not[1].map(() => "?").join(", ")}))` : "";
    const values = by.map((name, i) => `${name} AS v${i}`).join(", ");
    const statement = this.prepared(
      `SELECT ${values}, count(*) AS count, total(${sum}) AS sum FROM ${this.shape.table} WHERE ix = ?${where} AND listed = 1${excluded} GROUP BY ${by.join(", ")}`,
    );
    return (statement.all(this.ix, ...args, ...(not?.[1] ?? [])) as Record<string, string | number | null>[]).map((row) => ({
      values: by.map((_, i) => row[`v${i}`] ?? null),
      count: Number(row.count),
      sum: Number(row.sum),
    }));
  }

  meta(): IndexMeta | undefined {
    const stored = this.prepared("SELECT json FROM meta WHERE ix = ?").get(this.ix) as { json: string } | undefined;
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
    if (meta === undefined) this.prepared("DELETE FROM meta WHERE ix = ?").run(this.ix);
    else this.prepared("INSERT INTO meta (ix, json) VALUES (?, ?) ON CONFLICT (ix) DO UPDATE SET json = excluded.json").run(this.ix, JSON.stringify(meta));
  }

  clear(): void {
    this.transaction(() => {
      this.prepared(`DELETE FROM ${this.shape.table} WHERE ix = ?`).run(this.ix);
      this.prepared(`DELETE FROM ${this.shape.table}_keys WHERE ix = ?`).run(this.ix);
    });
    this.keep(undefined);
    this.count = 0;
  }

  /** The conditions of a select's time range on the table aliased `alias`, and their values. */
  private range(select: Select, alias: string): [string, number[]] {
    const by = `${alias}${select.by ?? "updated"}`;
    const where = [select.from !== undefined ? ` AND ${by} >= ?` : "", select.to !== undefined ? ` AND ${by} <= ?` : ""].join("");
    return [where, [select.from, select.to].filter((v): v is number => v !== undefined)];
  }

  private prepared(sql: string): StatementSync {
    const statement = this.statements.get(sql) ?? this.db.prepare(sql);
    this.statements.set(sql, statement);
    return statement;
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
        const fields = [shape.updated(row) ?? null, shape.inserted(row) ?? null, shape.listed(row) ? 1 : 0, body, extra];
        const columns = this.columns.map(([, of]) => of(row) ?? null);
        if (this.insert.run(ix, id, version, ...fields, ...columns).changes > 0) this.count++;
        else if (this.update.run(version, ...fields, ...columns, ix, id, force ? Number.MAX_VALUE : version, body, extra).changes === 0) continue;
        changed.push(row);
        this.dropKeys.run(ix, id);
        for (const key of new Set(shape.keys(row))) this.addKey.run(ix, id, key);
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
