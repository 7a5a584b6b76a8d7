import type { DatabaseSync, StatementSync } from "node:sqlite";
import { openDatabase } from "./database.js";

/**
 * The pages' customers as the joins of chats to orders need them (src/tools/inbox/page-people.ts):
 * by page-scoped id (psid), the person's platform-wide id and the phones the inbox holds of them.
 * Kept in the index's database beside the conversations, so a restarted server reads only the page
 * customers updated since (at 100x the demo a fresh read of every page's is 485 requests, at the
 * page's 5 a second), and a person's psids and phones on the other pages are a query, not a map
 * of every page customer in the heap.
 */

/** A page customer as the joins need it. */
export interface PagePerson {
  psid: string;
  global?: string | undefined;
  phones: string[];
}

/** How far a page's customers are read: every one updated up to `upTo` (Unix s; 0: none yet), and a walk under way. */
export interface PeopleProgress {
  upTo: number;
  walk?: { until: number; page: number };
}

/** The tables, made where missing (any database the index opens). */
export function preparePeopleTables(db: DatabaseSync): void {
  db.exec(`CREATE TABLE IF NOT EXISTS people (ix TEXT NOT NULL, psid TEXT NOT NULL, global TEXT, phones TEXT NOT NULL, PRIMARY KEY (ix, psid)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS people_global ON people (global) WHERE global IS NOT NULL;
    CREATE TABLE IF NOT EXISTS people_progress (ix TEXT PRIMARY KEY, json TEXT NOT NULL) WITHOUT ROWID`);
}

/** Every statement once a database. */
interface Statements {
  progress: StatementSync;
  keep: StatementSync;
  put: StatementSync;
  one: StatementSync;
  same: StatementSync;
}
const prepared = new WeakMap<DatabaseSync, Statements>();

function statements(db: DatabaseSync): Statements {
  let s = prepared.get(db);
  if (!s) {
    s = {
      progress: db.prepare("SELECT json FROM people_progress WHERE ix = ?"),
      keep: db.prepare("INSERT INTO people_progress (ix, json) VALUES (?, ?) ON CONFLICT (ix) DO UPDATE SET json = excluded.json"),
      put: db.prepare("INSERT INTO people (ix, psid, global, phones) VALUES (?, ?, ?, ?) ON CONFLICT (ix, psid) DO UPDATE SET global = excluded.global, phones = excluded.phones"),
      one: db.prepare("SELECT psid, global, phones FROM people WHERE ix = ? AND psid = ?"),
      same: db.prepare("SELECT psid, phones FROM people WHERE global = ? AND ix IN (SELECT value FROM json_each(?))"),
    };
    prepared.set(db, s);
  }
  return s;
}

const personOf = (row: Record<string, unknown>): PagePerson => ({
  psid: String(row.psid),
  global: row.global === null || row.global === undefined ? undefined : String(row.global),
  phones: JSON.parse(String(row.phones)) as string[],
});

/** One page's customers, named `ix` (a hash of the page and the credential that reads it). */
export class PeopleTable {
  constructor(
    private readonly db: DatabaseSync,
    readonly ix: string,
  ) {}

  progress(): PeopleProgress {
    const row = statements(this.db).progress.get(this.ix) as { json: string } | undefined;
    return row ? (JSON.parse(row.json) as PeopleProgress) : { upTo: 0 };
  }

  /** Keeps a list page's customers and how far the walk got, at once. */
  save(people: readonly PagePerson[], progress: PeopleProgress): void {
    const s = statements(this.db);
    this.db.exec("BEGIN");
    try {
      for (const p of people) s.put.run(this.ix, p.psid, p.global ?? null, JSON.stringify(p.phones));
      s.keep.run(this.ix, JSON.stringify(progress));
      this.db.exec("COMMIT");
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }

  person(psid: string): PagePerson | undefined {
    const row = statements(this.db).one.get(this.ix, psid) as Record<string, unknown> | undefined;
    return row ? personOf(row) : undefined;
  }

  /** The page customers of one platform-wide id on the pages of `tables` (never another account's). */
  sameGlobal(global: string, tables: readonly PeopleTable[]): PagePerson[] {
    const ixs = JSON.stringify(tables.filter((t) => t.db === this.db).map((t) => t.ix));
    return (statements(this.db).same.all(global, ixs) as Record<string, unknown>[]).map((row) => ({ ...personOf(row), global }));
  }
}

/** A database of the process's own for the page customers when the shop index is off (PANCAKE_INDEX=off). */
let own: DatabaseSync | undefined;
export function ownPeopleDatabase(): DatabaseSync {
  if (!own) {
    own = openDatabase(undefined);
    preparePeopleTables(own);
  }
  return own;
}
