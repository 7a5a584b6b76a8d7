import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIALIZE, raw, rpc, rpcMessage } from "../helpers/raw-http.js";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

// The README's default for --http: loopback, no bearer token. A page on another site that gets
// its name resolved to 127.0.0.1 must not reach the tools.
describe("DNS rebinding: the built server on loopback without a token", () => {
  let server: HttpServerProcess;
  let port: string;

  beforeAll(async () => {
    server = await spawnHttp(["--demo", "--log-level", "warning"]);
    port = new URL(server.url).port;
  });
  afterAll(async () => {
    if (server) await server.stop();
  });

  const listPages = rpc(2, "tools/call", { name: "list_pages", arguments: {} });
  const post = (headers: Record<string, string>, body = listPages) => raw(server.url, { headers, body });

  it("refuses Host names that only start like a loopback name", async () => {
    for (const host of [`127.attacker.example:${port}`, `127.0.0.1.nip.io:${port}`, `localhost.attacker.example:${port}`, `127.0.0.1:${port}.evil`]) {
      const res = await post({ host });
      expect(res.status, host).toBe(421);
      expect(res.body, host).not.toContain("pages");
    }
  });

  it("refuses a loopback name with another port or none", async () => {
    for (const host of [`127.0.0.1:${Number(port) + 1}`, "127.0.0.1", `localhost:${port}0`]) {
      expect((await post({ host })).status, host).toBe(421);
    }
  });

  it("refuses an Origin whose name only starts like a loopback name", async () => {
    for (const origin of [`http://127.attacker.example:${port}`, `http://127.0.0.1.nip.io:${port}`, "https://evil.example", "null"]) {
      const res = await post({ host: `127.0.0.1:${port}`, origin });
      expect(res.status, origin).toBe(403);
    }
  });

  it("serves the exact loopback names with the bound port, and local pages as origins", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      const res = await post({ host }, INITIALIZE);
      expect(res.status, host).toBe(200);
    }
    const res = await post({ host: `localhost:${port}`, origin: "http://localhost:6274" });
    expect(res.status).toBe(200);
    expect(rpcMessage(res.body).result.structuredContent.pages.length).toBeGreaterThan(0);
  });
});

// The README's team setup: every address, a token, and the name clients use allowed.
describe("Host names on a server bound to every address", () => {
  let server: HttpServerProcess;
  let port: string;
  const token = "team-token-0123456789";

  beforeAll(async () => {
    server = await spawnHttp(["--demo", "--host", "0.0.0.0", "--log-level", "warning"], { PANCAKE_MCP_TOKEN: token, PANCAKE_MCP_ALLOWED_HOSTS: "shop-server.lan" });
    port = new URL(server.url).port;
  });
  afterAll(async () => {
    if (server) await server.stop();
  });

  const post = (host: string) => raw(server.url, { headers: { host, authorization: `Bearer ${token}` }, body: INITIALIZE });

  it("announces a URL this machine can use, and serves its loopback names and the allowed one", async () => {
    expect(new URL(server.url).hostname).toBe("127.0.0.1");
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `shop-server.lan:${port}`]) expect((await post(host)).status, host).toBe(200);
  });

  it("refuses any other name, and says once in its log which name to allow", async () => {
    for (const host of [`192.168.1.20:${port}`, `192.168.1.20:${port}`, `rebind.attacker.example:${port}`]) {
      const res = await post(host);
      expect(res.status, host).toBe(421);
      expect(res.body).toContain("PANCAKE_MCP_ALLOWED_HOSTS");
    }
    await expect.poll(() => server.stderr()).toContain('refused Host "rebind.attacker.example');
    expect(server.stderr().split(`refused Host "192.168.1.20:${port}"`).length - 1).toBe(1);
  });
});
