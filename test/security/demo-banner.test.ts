import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerProcess, spawnHttp } from "../helpers/spawn.js";

const TOKEN = "demo-banner-secret-token-7Q2x";

describe("--demo --http prints client config without the bearer token", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await spawnHttp(["--demo"], { PANCAKE_MCP_TOKEN: TOKEN });
    // The banner follows the ready line.
    const until = Date.now() + 5_000;
    while (!server.stderr().includes("MCP Inspector") && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  });
  afterAll(async () => {
    if (server) await server.stop();
  });

  it("shows a placeholder and the token's last 4 characters, never the token", () => {
    const banner = server.stderr();
    expect(banner).toContain("Authorization: Bearer <PANCAKE_MCP_TOKEN>");
    expect(banner).toContain("ending in 7Q2x");
    expect(banner).not.toContain(TOKEN);
    expect(banner).not.toContain(TOKEN.slice(0, -4));
  });
});
