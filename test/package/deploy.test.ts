import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const text = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");

// No Docker engine runs here: the compose file is checked for what the scaling model needs (the
// Caddyfile passes `caddy validate`, the compose file `docker-compose config`; see the README).
describe("deploy/: two replicas, one Redis, a reverse proxy", () => {
  const compose = parse(text("deploy/compose.yaml"));
  const caddy = text("deploy/Caddyfile");
  const configReads = new Set([...text("src/config.ts").matchAll(/env\.(PANCAKE_[A-Z_]+)/g)].map((m) => m[1]));
  const replicas = Object.keys(compose.services).filter((name) => name.startsWith("mcp-"));

  it("runs two replicas of the same image and settings, sharing the Redis service", () => {
    expect(replicas).toEqual(["mcp-1", "mcp-2"]);
    const [a, b] = replicas.map((name) => compose.services[name]);
    expect(a).toEqual(b);
    expect(a.environment.PANCAKE_REDIS_URL).toBe("redis://redis:6379");
    expect(compose.services.redis.image).toMatch(/^redis:/);
    expect(a.depends_on.redis.condition).toBe("service_healthy");
    for (const name of Object.keys(a.environment)) expect(configReads.has(name), name).toBe(true);
    // The tenants file is a secret, never an environment value or a baked-in file.
    expect(a.environment.PANCAKE_MCP_TENANTS).toBe("/run/secrets/tenants.json");
    expect(a.secrets).toEqual([{ source: "tenants", target: "tenants.json" }]);
  });

  it("publishes only the proxy, which balances /mcp over both replicas by their readiness", () => {
    for (const name of replicas) expect(compose.services[name].ports).toBeUndefined();
    expect(compose.services.proxy.ports).toEqual(["80:80", "443:443"]);
    expect(caddy).toMatch(new RegExp(`reverse_proxy ${replicas.map((r) => `${r}:3000`).join(" ")} \\{`));
    expect(caddy).toContain("health_uri /readyz");
    expect(caddy).toMatch(/handle \/mcp \{/);
  });
});
