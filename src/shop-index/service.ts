import { createHash } from "node:crypto";
import { PAGE_RATE_PER_SECOND } from "../clients/index.js";
import type { MessagingClient } from "../clients/messaging.js";
import type { PosClient } from "../clients/pos.js";
import type { Conversation } from "../clients/schemas/messaging.js";
import type { PosOrder } from "../clients/schemas/pos.js";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import type { StateScope } from "../state/scope.js";
import type { DatabaseSync } from "node:sqlite";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { removeLegacyCopies } from "./admin.js";
import { conversationKind, V2_PAGE as CONVERSATION_PAGE } from "./conversation-rows.js";
import { openDatabase } from "./database.js";
import { fileKept, type KeptList, type KeptRegistry } from "./kept.js";
import { orderKind } from "./order-kind.js";
import { PAGE as ORDER_PAGE } from "./order-reader.js";
import { type IndexKind, type IndexPolicy, RowIndex } from "./row-index.js";
import { PeopleTable, preparePeopleTables } from "./people-table.js";
import { prepareTables, SqliteTable } from "./sqlite-table.js";

/**
 * The shop index of one tenant: an index of each shop's orders and of each page's conversations,
 * made when a question first needs it. Each is named by a hash of what it is an index of (the
 * upstream, the shop or page, and the credential that reads it), so two accounts never share one
 * and nothing in a name or a file reveals a credential.
 *
 * The rows live in an embedded database (database.ts), not in the process: on disk in the index
 * folder with PANCAKE_INDEX=disk (one file every tenant and server on this machine shares), else in
 * a private temporary file of the process's own (PANCAKE_INDEX=memory, and each hosted replica's
 * copy of the index it shares through Redis).
 */


export type OrderIndex = RowIndex<PosOrder, PosClient>;
export type ConversationIndex = RowIndex<Conversation, MessagingClient>;

export interface ShopIndexOptions {
  config: Pick<Config, "baseUrl" | "posBaseUrl" | "accessToken" | "pageAccessTokens" | "posApiKeys" | "index" | "pageRatePerSecond" | "posRatePerSecond">;
  state: StateScope;
  logger: Logger;
}

/** The index folder's database file. */
export const DATABASE_FILE = "shop-index.sqlite";


/** Each tenant's index, by its state (one per tenant, in memory or Redis), and every one made, to flush at exit. */
const byState = new WeakMap<StateScope, ShopIndex>();
const made = new Set<WeakRef<ShopIndex>>();

/**
 * The shop index of the tenant whose state this is, made on first use; undefined with
 * PANCAKE_INDEX=off. Kept apart from the clients (below it): the index reads through them.
 */
export function shopIndexFor(config: ShopIndexOptions["config"], state: StateScope, logger: Logger): ShopIndex | undefined {
  if (config.index.mode === "off") return undefined;
  let index = byState.get(state);
  if (!index) {
    index = new ShopIndex({ config, state, logger });
    byState.set(state, index);
    for (const ref of made) if (!ref.deref()) made.delete(ref);
    made.add(new WeakRef(index));
  }
  return index;
}

const hashOf = (parts: readonly string[]) => createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32);

/** A tenant's name on disk: a hash of the upstreams and credentials it reads with, never one of them. */
const tenantName = (config: ShopIndexOptions["config"]) =>
  hashOf([config.baseUrl, config.posBaseUrl, config.accessToken ?? "", JSON.stringify(config.pageAccessTokens), JSON.stringify(config.posApiKeys)]);

/** Writes what every index of the process has pending and lets go of their databases (the process, or a test's server, is ending). */
export async function closeShopIndexes(): Promise<void> {
  await Promise.all([...made].map((ref) => ref.deref()?.close()));
}

/**
 * The database at `file` ready for the index, or, when it cannot be read (damaged, cut short, not a
 * database at all), made anew: the index then reads the upstream again, as for any copy it cannot use.
 */
function usable(file: string | undefined, logger: Logger): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    db = openDatabase(file);
    prepare(db);
    return db;
  } catch (error) {
    if (file === undefined) throw error;
    db?.close();
    logger.warn(`shop index: ${file} could not be read (${error instanceof Error ? error.message : String(error)}); starting it anew`);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
    db = openDatabase(file);
    prepare(db);
    return db;
  }
}

function prepare(db: DatabaseSync): void {
  prepareTables(db);
  preparePeopleTables(db);
}

export class ShopIndex {
  private indexes = new Map<string, RowIndex<unknown, object>>();
  /** The database the tenant's indexes live in, opened on first use (see database()). */
  private db: DatabaseSync | undefined;
  /** Which pages and shops this tenant's index keeps beyond the process (none kept in memory alone). */
  private readonly kept: KeptRegistry | undefined;

  constructor(private readonly options: ShopIndexOptions) {
    const { config, state } = options;
    this.kept =
      config.index.mode !== "disk" ? undefined : state.indexStore ? state.kept?.() : config.index.dir ? fileKept(config.index.dir, tenantName(config)) : undefined;
  }

  orders(shopId: string): OrderIndex {
    const { config } = this.options;
    const key = config.posApiKeys[shopId] ?? config.posApiKeys["*"] ?? "";
    const pace = { perRequest: ORDER_PAGE, ratePerSecond: config.posRatePerSecond };
    return this.index(["orders", config.posBaseUrl, shopId, key], orderKind(shopId), pace, () => this.kept?.add("orders", shopId)) as OrderIndex;
  }

  conversations(pageId: string): ConversationIndex {
    const { config } = this.options;
    const token = config.pageAccessTokens[pageId] ?? config.accessToken ?? "";
    const pace = { perRequest: CONVERSATION_PAGE, ratePerSecond: config.pageRatePerSecond ?? PAGE_RATE_PER_SECOND };
    return this.index(["conversations", config.baseUrl, pageId, token], conversationKind(pageId), pace, () => this.kept?.add("conversations", pageId)) as ConversationIndex;
  }

  /** A page's customers as the joins of chats to orders need them (people-table.ts). */
  people(pageId: string): PeopleTable {
    const { config } = this.options;
    const token = config.pageAccessTokens[pageId] ?? config.accessToken ?? "";
    return new PeopleTable(this.database(), hashOf(["people", config.baseUrl, pageId, token]));
  }

  /** The pages and shops whose index was kept by an earlier run: a start brings them up to date. */
  keptList(): Promise<KeptList> {
    return this.kept?.read() ?? Promise.resolve({ conversations: [], orders: [] });
  }

  /** Writes what is pending and closes the database; a later question opens it again. */
  async close(): Promise<void> {
    const indexes = [...this.indexes.values()];
    this.indexes = new Map();
    await Promise.all(indexes.map((index) => index.flush()));
    this.db?.close();
    this.db = undefined;
  }

  /**
   * The index folder's database with PANCAKE_INDEX=disk (every tenant and server on the machine
   * opens the same file), else a temporary one of the tenant's own: an index of this server alone,
   * or hosted, this replica's copy of the one its replicas share through Redis.
   */
  private database(): DatabaseSync {
    if (this.db) return this.db;
    const { index } = this.options.config;
    const file = index.mode === "disk" && !this.options.state.indexStore && index.dir ? join(index.dir, DATABASE_FILE) : undefined;
    this.db = usable(file, this.options.logger);
    if (file !== undefined) void removeLegacyCopies(dirname(file)).catch(() => {});
    return this.db;
  }

  private index<R, C extends object>(identity: string[], kind: IndexKind<R, C>, pace: IndexPolicy["pace"], made: () => void): RowIndex<R, C> {
    const name = hashOf(identity);
    let index = this.indexes.get(name) as RowIndex<R, C> | undefined;
    if (!index) {
      made();
      const { config, state, logger } = this.options;
      const settings = config.index;
      const policy: IndexPolicy = { refreshMs: settings.refreshSeconds * 1000, maxRows: settings.maxRows, pace };
      // Kept beyond the process with "disk": shared through Redis when the replicas share state.
      const shared = settings.mode === "disk" ? state.indexStore?.<R>(`${identity[0]}-${name}`, (row) => ({ id: kind.id(row), version: kind.version(row) })) : undefined;
      index = new RowIndex(kind, new SqliteTable(this.database(), kind, name), policy, shared, logger);
      this.indexes.set(name, index as RowIndex<unknown, object>);
    }
    return index;
  }
}
