import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "../../src/sandbox/index.js";
import { callOverHttp } from "../helpers/http-mcp.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const TOKEN_A = "tenant-a-bearer-token-0123456789";
const TOKEN_B = "tenant-b-bearer-token-9876543210";

/**
 * Two accounts on two simulated upstreams with the same page ids (as two agencies' shops never
 * have, but a cache keyed by page id alone would then mix them up), told apart by their names,
 * tags, shop and credentials.
 */
function accountB(): Sandbox {
  const b = new Sandbox({ credentials: { userToken: "ut_tenant_b_0123456789abcdef", posApiKey: "pos_tenant_b_0123456789", pageTokenPrefix: "pat_tenant_b_" } });
  for (const page of b.messaging.pages) page.name = `B · ${page.name}`;
  for (const tags of Object.values(b.messaging.tags)) for (const tag of tags) tag.text = `B-${tag.text}`;
  b.pos.shop.name = "Tiệm B";
  b.pos.shop.id = 2_000_001;
  return b;
}

/** Every credential a sandbox account accepts. */
function secretsOf(sandbox: Sandbox): Set<string> {
  const c = sandbox.credentials;
  return new Set([c.userToken, c.posApiKey, ...Object.values(c.pageTokens)]);
}

/** The credentials each request to `sandbox` carried. */
function credentialsSent(sandbox: Sandbox): string[] {
  return sandbox.server.requests.flatMap((r) => ["access_token", "page_access_token", "api_key"].flatMap((k) => r.query[k] ?? []));
}

for (const mode of ["memory", "redis"] as const) {
  describe(`two tenants on one server (state in ${mode})`, () => {
    const a = new Sandbox();
    const b = accountB();
    let redis: RedisServer | undefined;
    let server: HttpServerProcess;
    let dir: string;
    let file: string;
    const tenants = () => [
      {
        id: "shop-a",
        token_sha256: sha256(TOKEN_A),
        access_token: a.credentials.userToken,
        pos_api_key: a.credentials.posApiKey,
        toolsets: "all",
        base_url: a.started.messagingBaseUrl,
        pos_base_url: a.started.posBaseUrl,
      },
      {
        id: "shop-b",
        token_sha256: sha256(TOKEN_B),
        access_token: b.credentials.userToken,
        pos_api_key: { [String(b.pos.shop.id)]: b.credentials.posApiKey },
        read_only: true,
        base_url: b.started.messagingBaseUrl,
        pos_base_url: b.started.posBaseUrl,
      },
    ];
    const asA = (name: string, args: Record<string, unknown> = {}) => callOverHttp(server.url, name, args, { authorization: `Bearer ${TOKEN_A}` });
    const asB = (name: string, args: Record<string, unknown> = {}) => callOverHttp(server.url, name, args, { authorization: `Bearer ${TOKEN_B}` });
    const page = () => a.messaging.pages[0]!.id;

    beforeAll(async () => {
      await a.start();
      await b.start();
      if (mode === "redis") redis = await startRedis();
      dir = mkdtempSync(join(tmpdir(), "pancake-tenants-"));
      file = join(dir, "tenants.json");
      writeFileSync(file, JSON.stringify({ tenants: tenants() }));
      server = await spawnHttp([], {
        PANCAKE_MCP_TENANTS: file,
        PANCAKE_LOG_LEVEL: "debug",
        PANCAKE_LOG_FORMAT: "json",
        ...(redis ? { PANCAKE_REDIS_URL: redis.url } : {}),
      });
    }, 30_000);
    afterAll(async () => {
      await server?.stop();
      await redis?.stop();
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("interleaved calls: each tenant sees only its own pages, tags and shops, through its own credentials", async () => {
      const rounds = await Promise.all(
        Array.from({ length: 4 }, () =>
          Promise.all([
            asA("list_pages"),
            asB("list_pages"),
            asA("list_page_tags", { page_id: page() }),
            asB("list_page_tags", { page_id: page() }),
            asA("list_shops"),
            asB("list_shops"),
            asA("list_conversations", { page_ids: [page()], limit: 3 }),
            asB("list_conversations", { page_ids: [page()], limit: 3 }),
          ]),
        ),
      );
      for (const [pagesA, pagesB, tagsA, tagsB, shopsA, shopsB, convA, convB] of rounds) {
        for (const r of [pagesA, pagesB, tagsA, tagsB, shopsA, shopsB, convA, convB]) expect(r!.isError, r!.text).toBe(false);
        const names = (r: typeof pagesA) => r!.data.pages.map((p: { name: string }) => p.name);
        expect(names(pagesA).some((n: string) => n.startsWith("B · "))).toBe(false);
        expect(names(pagesB).every((n: string) => n.startsWith("B · "))).toBe(true);
        expect(tagsA!.data.tags.some((t: { name: string }) => t.name.startsWith("B-"))).toBe(false);
        expect(tagsB!.data.tags.every((t: { name: string }) => t.name.startsWith("B-"))).toBe(true);
        expect(shopsA!.data.shops.map((s: { id: string }) => s.id)).toEqual([String(a.pos.shop.id)]);
        expect(shopsB!.data.shops.map((s: { id: string; name: string }) => `${s.id} ${s.name}`)).toEqual(["2000001 Tiệm B"]);
      }
      // No request to an account carried the other's credentials: page tokens included, which
      // each tenant read from its own page list and cached.
      const ofA = secretsOf(a);
      const ofB = secretsOf(b);
      expect(credentialsSent(a).filter((s) => !ofA.has(s))).toEqual([]);
      expect(credentialsSent(b).filter((s) => !ofB.has(s))).toEqual([]);
      expect(credentialsSent(b).some((s) => s.startsWith("pat_tenant_b_"))).toBe(true);
    });

    it("a cursor from one tenant is refused in the other's call, on the same page", async () => {
      const first = await asA("list_conversations", { page_ids: [page()], limit: 2 });
      const cursor = first.data.next_cursor;
      expect(cursor).toBeTruthy();
      expect((await asA("list_conversations", { page_ids: [page()], limit: 2, cursor })).isError).toBe(false);
      const borrowed = await asB("list_conversations", { page_ids: [page()], limit: 2, cursor });
      expect(borrowed.isError).toBe(true);
      expect(borrowed.text).toMatch(/cursor/);
    });

    it("errors name only the tenant's own pages", async () => {
      const r = await asB("list_page_tags", { page_id: "No Such Page" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("B · ");
      expect(r.text.replaceAll("B · ", "")).not.toMatch(/Thời Trang Mây \(|maystore\.vn \(/);
    });

    it("each tenant has its own tools: the read-only one has no write tool", async () => {
      expect((await asA("save_warehouse", { name: "Kho test", address: "1 Lê Lợi" })).text).not.toMatch(/not found/i);
      const write = await asB("send_inbox_message", { page_id: page(), conversation_id: "x", message: "hi" });
      expect(write.isError).toBe(true);
      expect(write.text).toMatch(/not found|unknown tool|not (enabled|available)/i);
      const stranger = await callOverHttp(server.url, "list_pages", {}, { authorization: "Bearer not-a-tenant-token-0000" });
      expect(stranger.status).toBe(401);
    });

    it("log records name their tenant and request; the request id reaches the upstream", async () => {
      const r = await asB("list_conversations", { page_ids: [page()], limit: 1 });
      const requestId = r.headers["x-request-id"] as string;
      expect(requestId).toBeTruthy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const records = server
        .stderr()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, string>);
      const upstreamLines = records.filter((rec) => /^GET \//.test(rec.msg ?? ""));
      expect(upstreamLines.length).toBeGreaterThan(0);
      for (const rec of upstreamLines) {
        expect(["shop-a", "shop-b"]).toContain(rec.tenant);
        expect(rec.request_id).toBeTruthy();
      }
      // Every request A's account got came from a request of tenant A, and B's from B.
      const tenantOf = new Map(upstreamLines.map((rec) => [rec.request_id, rec.tenant]));
      for (const [sandbox, id] of [[a, "shop-a"], [b, "shop-b"]] as const) {
        const ids = sandbox.server.requests.map((q) => q.requestId).filter((x): x is string => !!x);
        expect(ids.length).toBeGreaterThan(0);
        for (const x of ids) if (tenantOf.has(x)) expect(tenantOf.get(x)).toBe(id);
      }
      expect(b.server.requests.some((q) => q.requestId === requestId)).toBe(true);
      expect(records.some((rec) => rec.request_id === requestId && rec.tenant === "shop-b")).toBe(true);
      for (const secret of [...secretsOf(a), ...secretsOf(b), TOKEN_A, TOKEN_B]) expect(server.stderr()).not.toContain(secret);
    });

    it("SIGHUP reloads the file: a removed tenant is refused, and a broken file changes nothing", async () => {
      writeFileSync(file, JSON.stringify({ tenants: [tenants()[0]] }));
      server.child.kill("SIGHUP");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await asB("list_pages")).status).toBe(401);
      expect((await asA("list_pages")).isError).toBe(false);
      writeFileSync(file, JSON.stringify({ tenants: [{ id: "broken", token_sha256: "nope" }] }));
      server.child.kill("SIGHUP");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.stderr()).toMatch(/tenants not reloaded, the previous ones stay.*token_sha256/);
      expect((await asA("list_pages")).isError).toBe(false);
      writeFileSync(file, JSON.stringify({ tenants: tenants() }));
      server.child.kill("SIGHUP");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await asB("list_pages")).isError).toBe(false);
    });
  });
}
