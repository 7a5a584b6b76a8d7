import type { Redis, RedisOptions } from "ioredis";
import type { Logger } from "../log.js";

/** Scripts the state layer runs in Redis, by name (ioredis sends each by SHA once loaded). */
export interface Scripts {
  [name: string]: { keys: number; lua: string };
}

/** How long a process serves from memory after a failed command on a live connection. */
const RETRY_AFTER_FAILURE_MS = 2000;

type ScriptRunner = (...args: (string | number)[]) => Promise<unknown>;

/**
 * The one Redis connection of a process, and whether it is usable. While it is not (never
 * reached, dropped, or a command failed), the state layer serves from memory: calls go on with
 * this process's own limits and caches, a warning is logged once per outage, and /readyz says
 * "degraded". Commands never queue while Redis is away and never wait long, so a call is never
 * held by Redis.
 */
export class RedisLink {
  private downSince: number | undefined = Date.now();
  private warned = false;
  private closing = false;

  private constructor(
    readonly client: Redis,
    private readonly logger: Logger,
  ) {
    client.on("ready", () => this.recovered());
    client.on("close", () => this.failed(new Error("connection closed")));
    client.on("error", (error: Error) => this.failed(error));
  }

  /** Connects (ioredis loads only here); resolves once connected or at once degraded. */
  static async open(url: string, logger: Logger, scripts: Scripts, waitMs = 3000): Promise<RedisLink> {
    const module = await import("ioredis");
    // A bundled CommonJS module arrives as its `default` export.
    const RedisClass = (module.Redis ?? (module as unknown as { default: { Redis: typeof module.Redis } }).default.Redis) as typeof module.Redis;
    const options: RedisOptions = {
      // A command while disconnected fails at once (the caller falls back to memory) instead of waiting.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 1000,
      connectTimeout: 2000,
      // Reconnects for as long as the process runs, at most every 2 s.
      retryStrategy: (times) => Math.min(times * 200, 2000),
      // Commands issued in the same tick go in one write: many concurrent calls, few round trips.
      enableAutoPipelining: true,
      lazyConnect: true,
    };
    const client = new RedisClass(url, options);
    for (const [name, script] of Object.entries(scripts)) client.defineCommand(name, { numberOfKeys: script.keys, lua: script.lua });
    const link = new RedisLink(client, logger);
    await Promise.race([client.connect().catch(() => {}), new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
    if (!link.up) link.failed(new Error(`could not connect to ${redisAddress(url)}`));
    return link;
  }

  get up(): boolean {
    if (this.client.status !== "ready") return false;
    if (this.downSince === undefined) return true;
    // Connected, after a command failed: try Redis again once the failure is a moment old.
    if (Date.now() - this.downSince < RETRY_AFTER_FAILURE_MS) return false;
    this.recovered();
    return true;
  }

  /** "up" or "down", for /readyz and /metrics. */
  get status(): "up" | "down" {
    return this.up ? "up" : "down";
  }

  run(name: string, ...args: (string | number)[]): Promise<unknown> {
    return (this.client as unknown as Record<string, ScriptRunner>)[name]!(...args);
  }

  /** Marks Redis unusable until it reconnects; says so once per outage. */
  failed(error: unknown): void {
    this.downSince ??= Date.now();
    if (this.warned || this.closing) return;
    this.warned = true;
    this.logger.warn(
      `Redis unavailable (${error instanceof Error ? error.message : String(error)}): rate limits and caches are held by each process alone until it is back`,
    );
  }

  private recovered(): void {
    if (this.downSince === undefined) return;
    const was = this.warned;
    this.downSince = undefined;
    this.warned = false;
    if (was) this.logger.info("Redis is back: rate limits and caches are shared again");
  }

  async close(): Promise<void> {
    this.closing = true;
    // QUIT waits for pending replies; a hung Redis must not hold shutdown.
    await Promise.race([this.client.quit().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 500).unref())]);
    this.client.disconnect();
  }
}

/** host:port of a Redis URL, without its password. */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 6379}`;
  } catch {
    return "the configured address";
  }
}
