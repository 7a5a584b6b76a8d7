import type { limiterEvents, upstreamEvents } from "./clients/http.js";
import type { toolEvents } from "./tools/define.js";
import type { cacheEvents } from "./state/ttl-cache.js";

export interface Metrics {
  /** Counts an MCP request by tenant. */
  request(tenant: string): void;
  render(): Promise<{ contentType: string; body: string }>;
}

export interface MetricSources {
  tenants: () => number;
  /** Redis's state, when it is configured. */
  redis: () => "up" | "down" | undefined;
}

const seconds = (ms: number) => ms / 1000;
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * /metrics (PANCAKE_METRICS=1) in Prometheus format, through prom-client, which loads only then:
 * tool calls by tool and outcome with their latency, upstream requests by API and status with
 * theirs, the rate-limit queue (requests waiting, and how long they waited), cache hits and
 * misses by cache, requests by tenant, tenants configured, Redis up, and the process's own
 * figures (memory, CPU, event-loop lag). Each part of the server reports through a hook that
 * costs nothing while metrics are off.
 */
export interface MetricHooks {
  toolEvents: typeof toolEvents;
  upstreamEvents: typeof upstreamEvents;
  limiterEvents: typeof limiterEvents;
  cacheEvents: typeof cacheEvents;
}

// The hooks are handed over rather than imported, so this chunk holds prom-client and nothing of
// the server's own code, which stays in one chunk.
export async function startMetrics(sources: MetricSources, hooks: MetricHooks): Promise<Metrics> {
  const { toolEvents, upstreamEvents, limiterEvents, cacheEvents } = hooks;
  const module = await import("prom-client");
  // A bundled CommonJS module arrives as its `default` export.
  const prom = (module.Registry ? module : (module as unknown as { default: typeof module }).default) as typeof module;
  const registry = new prom.Registry();
  const registers = [registry];
  prom.collectDefaultMetrics({ register: registry, prefix: "pancake_mcp_" });

  const toolCalls = new prom.Counter({ name: "pancake_mcp_tool_calls_total", help: "Tool calls by tool and outcome (ok, or the error kind).", labelNames: ["tool", "outcome"], registers });
  const toolSeconds = new prom.Histogram({ name: "pancake_mcp_tool_call_duration_seconds", help: "Time to answer a tool call.", labelNames: ["tool"], buckets: LATENCY_BUCKETS, registers });
  toolEvents.observe = (tool, outcome, ms) => {
    toolCalls.inc({ tool, outcome });
    toolSeconds.observe({ tool }, seconds(ms));
  };

  const upstream = new prom.Counter({ name: "pancake_mcp_upstream_requests_total", help: "Upstream requests by API and HTTP status (error: no answer).", labelNames: ["api", "status"], registers });
  const upstreamSeconds = new prom.Histogram({ name: "pancake_mcp_upstream_duration_seconds", help: "Time from sending an upstream request to its answer's start.", labelNames: ["api"], buckets: LATENCY_BUCKETS, registers });
  upstreamEvents.observe = (api, status, ms) => {
    upstream.inc({ api, status });
    upstreamSeconds.observe({ api }, seconds(ms));
  };

  const queued = new prom.Gauge({ name: "pancake_mcp_limiter_queue_depth", help: "Upstream requests waiting for their place in a rate limit.", labelNames: ["api"], registers });
  const waited = new prom.Histogram({ name: "pancake_mcp_limiter_wait_seconds", help: "Time upstream requests waited for their place in a rate limit.", labelNames: ["api"], buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30], registers });
  limiterEvents.queued = (api, delta) => queued.inc({ api }, delta);
  limiterEvents.waited = (api, ms) => waited.observe({ api }, seconds(ms));

  const cache = new prom.Counter({ name: "pancake_mcp_cache_lookups_total", help: "Cache lookups by cache and result (hit: in this process; shared: from Redis; miss: read upstream).", labelNames: ["cache", "result"], registers });
  cacheEvents.observe = (name, result) => cache.inc({ cache: name, result });

  const requests = new prom.Counter({ name: "pancake_mcp_requests_total", help: "MCP requests by tenant.", labelNames: ["tenant"], registers });
  new prom.Gauge({ name: "pancake_mcp_tenants", help: "Tenants configured.", registers, collect() {
    this.set(sources.tenants());
  } });
  new prom.Gauge({ name: "pancake_mcp_redis_up", help: "1 while Redis is reachable, 0 while each process holds limits alone (absent: no Redis configured).", registers, collect() {
    const state = sources.redis();
    if (state !== undefined) this.set(state === "up" ? 1 : 0);
  } });

  return {
    request: (tenant) => requests.inc({ tenant }),
    render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}
