import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileUpstream, hostileUpstream } from "../helpers/hostile-upstream.js";
import { type StdioServer, spawnStdio } from "../helpers/stdio-client.js";

const FORGED = "bad input\n[pancake-mcp] error: FORGED admin token leaked\r\n\u202eevil\u200b\u0007";

// An upstream writes a fake log record (and invisible characters) into its error message.
describe("upstream error text cannot forge a log line or carry invisible characters", () => {
  let upstream: HostileUpstream;
  let server: StdioServer;

  beforeAll(async () => {
    upstream = await hostileUpstream((_req, res) => {
      res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ success: false, error_code: "E\n1", message: FORGED }));
    });
    server = await spawnStdio({
      PANCAKE_POS_BASE_URL: `${upstream.url}/pos`,
      PANCAKE_POS_API_KEY: "forged-log-key-0001",
      PANCAKE_LOG_LEVEL: "debug",
    });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it("the error result keeps the words on one line, without control, bidi or zero-width characters", async () => {
    const r = await server.call("list_shops");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("FORGED admin token leaked");
    const [headline] = r.text.split("\nNext step:");
    expect(headline).not.toMatch(/[\n\r\u0007\u200b\u202e]/);
  });

  it("every log record on stderr is one line: no record starts with the forged prefix", async () => {
    await server.call("list_shops");
    const lines = server.stderr().split("\n");
    expect(lines.some((l) => l.includes("FORGED"))).toBe(true);
    expect(lines.filter((l) => l.startsWith("[pancake-mcp] error: FORGED"))).toEqual([]);
    expect(server.stderr()).not.toMatch(/[\r\u0007\u200b\u202e]/);
  });
});
