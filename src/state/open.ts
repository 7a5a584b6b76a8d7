import { NetworkError } from "../clients/errors.js";
import type { Logger } from "../log.js";
import { LIMIT_WINDOW_MS, MemoryScope } from "./memory.js";
import type { RedisState } from "./redis.js";

/** Connects to PANCAKE_REDIS_URL; the Redis code (and ioredis) loads only here. */
export async function openRedis(url: string, logger: Logger, leaseMs: number): Promise<RedisState> {
  const { RedisState } = await import("./redis.js");
  return RedisState.open(url, logger, {
    leaseMs,
    windowMs: LIMIT_WINDOW_MS,
    memory: (namespace) => new MemoryScope(namespace),
    cancelled: () => new NetworkError("request", "network", "cancelled by the client"),
  });
}
