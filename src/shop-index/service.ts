import { createHash } from "node:crypto";
import type { MessagingClient } from "../clients/messaging.js";
import type { PosClient } from "../clients/pos.js";
import type { Conversation } from "../clients/schemas/messaging.js";
import type { PosOrder } from "../clients/schemas/pos.js";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import type { StateScope } from "../state/scope.js";
import { conversationKind } from "./conversation-rows.js";
import { FileStore } from "./file-store.js";
import { fileKept, type KeptList, type KeptRegistry } from "./kept.js";
import { orderKind } from "./order-kind.js";
import { type IndexKind, type IndexPolicy, RowIndex } from "./row-index.js";
import { type IndexStore, MemoryStore } from "./store.js";

/**
 * The shop index of one tenant: an index of each shop's orders and of each page's conversations,
 * made when a question first needs it. Each is named by a hash of what it is an index of (the
 * upstream, the shop or page, and the credential that reads it), so two accounts never share one
 * and nothing in a name or a file reveals a credential.
 *
 * Rows held across every index of the process are bounded: past the bound the least recently used
 * index lets go of its rows (its store keeps them, a later question loads them again).
 */

export type OrderIndex = RowIndex<PosOrder, PosClient>;
export type ConversationIndex = RowIndex<Conversation, MessagingClient>;

export interface ShopIndexOptions {
  config: Pick<Config, "baseUrl" | "posBaseUrl" | "accessToken" | "pageAccessTokens" | "posApiKeys" | "index">;
  state: StateScope;
  logger: Logger;
}

/** Every index in the process, least recently used first, and the rows they hold together. */
const live = new Map<RowIndex<unknown, object>, true>();
let held = 0;
/** Indexes kept in memory at most, however few rows they hold (tenants come and go). */
const MAX_INDEXES = 1_000;

function use(index: RowIndex<unknown, object>, maxHeld: number): void {
  live.delete(index);
  live.set(index, true);
  // Rows leave once an eviction has written them out: count them gone now, or every index would go.
  let projected = held;
  for (const old of live.keys()) {
    if (projected <= maxHeld && live.size <= MAX_INDEXES) break;
    if (old === index) continue;
    projected -= old.size;
    live.delete(old);
    void old.evict();
  }
}

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

/** Writes what every index of the process has pending (the process is about to end). */
export async function flushShopIndexes(): Promise<void> {
  await Promise.all([...made].map((ref) => ref.deref()?.flush()));
}

export class ShopIndex {
  private readonly indexes = new Map<string, RowIndex<unknown, object>>();
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
    return this.index(["orders", config.posBaseUrl, shopId, key], orderKind(shopId), () => this.kept?.add("orders", shopId)) as OrderIndex;
  }

  conversations(pageId: string): ConversationIndex {
    const { config } = this.options;
    const token = config.pageAccessTokens[pageId] ?? config.accessToken ?? "";
    return this.index(["conversations", config.baseUrl, pageId, token], conversationKind(pageId), () => this.kept?.add("conversations", pageId)) as ConversationIndex;
  }

  /** The pages and shops whose index was kept by an earlier run: a start brings them up to date. */
  keptList(): Promise<KeptList> {
    return this.kept?.read() ?? Promise.resolve({ conversations: [], orders: [] });
  }

  /** Writes what is pending (the process is about to end). */
  async flush(): Promise<void> {
    await Promise.all([...this.indexes.values()].map((index) => index.flush()));
  }

  private index<R, C extends object>(identity: string[], kind: IndexKind<R, C>, made: () => void): RowIndex<R, C> {
    const name = hashOf(identity);
    let index = this.indexes.get(name) as RowIndex<R, C> | undefined;
    const { index: settings } = this.options.config;
    if (!index) {
      made();
      const policy: IndexPolicy = { refreshMs: settings.refreshSeconds * 1000, maxRows: settings.maxRows };
      const identify = (row: R) => ({ id: kind.id(row), version: kind.version?.(row) ?? kind.updated(row) ?? 0 });
      index = new RowIndex(
        kind,
        this.store<R>(`${identity[0]}-${name}`, identify),
        policy,
        (delta) => {
          held += delta;
        },
        this.options.logger,
      );
      this.indexes.set(name, index as RowIndex<unknown, object>);
    }
    use(index as RowIndex<unknown, object>, settings.maxHeldRows);
    return index;
  }

  private store<R>(key: string, identify: (row: R) => { id: string; version: number }): IndexStore<R> {
    const { config, state, logger } = this.options;
    // Kept beyond the process with "disk": in Redis when the replicas share state, else in the cache folder.
    if (config.index.mode !== "disk") return new MemoryStore<R>();
    const shared = state.indexStore?.<R>(key, identify);
    if (shared) return shared;
    if (!config.index.dir) return new MemoryStore<R>();
    return new FileStore<R>(config.index.dir, key, (error) => logger.warn(`shop index not saved: ${error instanceof Error ? error.message : String(error)}`));
  }
}
