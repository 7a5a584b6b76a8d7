import { describe, expect, it } from "vitest";
import { ConfigFileError, parseCli } from "../src/config.js";
import { redact } from "../src/text/redact.js";
import { TOOLSETS } from "../src/toolsets.js";

function serve(argv: string[], env: Record<string, string> = {}) {
  const command = parseCli(argv, env);
  if (command.kind !== "serve") throw new Error(`expected serve, got ${command.kind}`);
  return command.config;
}

describe("parseCli", () => {
  it("applies the documented defaults", () => {
    const config = serve([]);
    expect(config.timezone).toBe("Asia/Ho_Chi_Minh");
    expect(config.baseUrl).toBe("https://pages.fm/api");
    expect(config.posBaseUrl).toBe("https://pos.pages.fm/api/v1");
    expect(config.toolsets).toEqual(["default"]);
    expect(config.readOnly).toBe(false);
    expect(config.http).toBe(false);
    expect(config.host).toBe("127.0.0.1");
    expect(config.port).toBe(3000);
  });

  it("reads env and lets flags win", () => {
    const config = serve(["--toolsets", "orders,inbox", "--timezone", "Asia/Bangkok", "--http", "--port", "8080"], {
      PANCAKE_TOOLSETS: "all",
      PANCAKE_TIMEZONE: "UTC",
      PANCAKE_READ_ONLY: "1",
      PANCAKE_PAGE_ACCESS_TOKENS: "111=tokA, 222=tokB",
      PANCAKE_POS_API_KEY: "42=keyA,43=keyB",
    });
    expect(config.toolsets).toEqual(["orders", "inbox"]);
    expect(config.timezone).toBe("Asia/Bangkok");
    expect(config.readOnly).toBe(true);
    expect(config.pageAccessTokens).toEqual({ "111": "tokA", "222": "tokB" });
    expect(config.posApiKeys).toEqual({ "42": "keyA", "43": "keyB" });
    expect(config.port).toBe(8080);
  });

  it("reads each page's call-centre package id", () => {
    expect(serve([], { PANCAKE_CALL_CENTER_IDS: "111=sip_a, 222=sip_b" }).callCenterIds).toEqual({ "111": "sip_a", "222": "sip_b" });
    expect(serve([]).callCenterIds).toEqual({});
    expect(() => serve([], { PANCAKE_CALL_CENTER_IDS: "sip_a" })).toThrow(/PANCAKE_CALL_CENTER_IDS: expected id=value/);
  });

  it("reads the result budget, within bounds", () => {
    expect(serve([]).maxResultChars).toBe(100_000);
    expect(serve([], { PANCAKE_MAX_RESULT_CHARS: "40000" }).maxResultChars).toBe(40_000);
    expect(() => serve([], { PANCAKE_MAX_RESULT_CHARS: "500" })).toThrow(/PANCAKE_MAX_RESULT_CHARS: .*2000/);
    expect(() => serve([], { PANCAKE_MAX_RESULT_CHARS: "lots" })).toThrow(/PANCAKE_MAX_RESULT_CHARS/);
  });

  it("counts groupings by the POS's statistics unless PANCAKE_POS_STATISTICS is off", () => {
    expect(serve([]).posStatistics).toBe(true);
    expect(serve([], { PANCAKE_POS_STATISTICS: "0" }).posStatistics).toBe(false);
    expect(() => serve([], { PANCAKE_POS_STATISTICS: "sometimes" })).toThrow(/PANCAKE_POS_STATISTICS/);
  });

  it("expands all and takes a single POS key for every shop", () => {
    const config = serve([], { PANCAKE_TOOLSETS: "all", PANCAKE_POS_API_KEY: "single-key-123" });
    expect(config.toolsets).toEqual([...TOOLSETS]);
    expect(config.posApiKeys).toEqual({ "*": "single-key-123" });
  });

  it("trims the whitespace pasted around a POS key (the live POS refuses the key with it: 403, code 105)", () => {
    expect(serve([], { PANCAKE_POS_API_KEY: " single-key-123\n" }).posApiKeys).toEqual({ "*": "single-key-123" });
    expect(serve([], { PANCAKE_POS_API_KEY: "42= keyA \n, 43=keyB\t" }).posApiKeys).toEqual({ "42": "keyA", "43": "keyB" });
  });

  it("registers every secret for redaction", () => {
    serve([], { PANCAKE_ACCESS_TOKEN: "user-token-secret-1", PANCAKE_POS_API_KEY: "pos-key-secret-2" });
    expect(redact("a user-token-secret-1 b pos-key-secret-2")).toBe("a [redacted] b [redacted]");
  });

  it("names the variable and the allowed values when a setting is wrong", () => {
    expect(() => serve([], { PANCAKE_TOOLSETS: "orders,nope" })).toThrow(ConfigFileError);
    expect(() => serve([], { PANCAKE_TOOLSETS: "orders,nope" })).toThrow(/PANCAKE_TOOLSETS.*pages.*inbox/s);
    expect(() => serve([], { PANCAKE_TIMEZONE: "Mars/Base" })).toThrow(/PANCAKE_TIMEZONE.*IANA/);
    expect(() => serve([], { PANCAKE_PAGE_ACCESS_TOKENS: "justatoken" })).toThrow(/PANCAKE_PAGE_ACCESS_TOKENS: expected id=value/);
    expect(() => serve([], { PANCAKE_MCP_TOKEN: "short" })).toThrow(/PANCAKE_MCP_TOKEN must be at least 16/);
    expect(() => serve(["--port", "99999"])).toThrow(/--port/);
    expect(() => serve(["--bogus"])).toThrow(/bogus/);
  });

  it("parses help, version and the sandbox command", () => {
    const help = parseCli(["--help"], {});
    expect(help.kind === "help" && help.text).toContain("PANCAKE_POS_API_KEY");
    expect(parseCli(["--version"], {}).kind).toBe("version");
    expect(parseCli(["sandbox", "--port", "4999"], {})).toEqual({ kind: "sandbox", port: 4999, host: "127.0.0.1" });
  });

  it("sizes and slows the sandbox and the demo shop, naming the flag and the range of a bad value", () => {
    expect(parseCli(["sandbox", "--scale", "100", "--latency", "250"], {})).toMatchObject({ kind: "sandbox", scale: 100, latencyMs: 250 });
    expect(serve(["--demo", "--demo-scale", "10", "--demo-latency", "50"])).toMatchObject({ demo: true, demoScale: 10, demoLatencyMs: 50 });
    expect(serve(["--demo"], { PANCAKE_DEMO_SCALE: "3", PANCAKE_DEMO_LATENCY_MS: "0" })).toMatchObject({ demoScale: 3, demoLatencyMs: 0 });
    // The variables are the demo's: without --demo they are not read.
    expect(serve([], { PANCAKE_DEMO_SCALE: "nope" })).toMatchObject({ demoScale: undefined });
    expect(() => parseCli(["sandbox", "--scale", "0"], {})).toThrow(/--scale: expected an integer from 1 to 1000, got "0"/);
    expect(() => parseCli(["sandbox", "--scale", "2.5"], {})).toThrow(/--scale: expected an integer from 1 to 1000/);
    expect(() => parseCli(["sandbox", "--latency=-1"], {})).toThrow(/--latency: expected an integer from 0 to 60000/);
    expect(() => serve(["--demo"], { PANCAKE_DEMO_SCALE: "1001" })).toThrow(/PANCAKE_DEMO_SCALE \/ --demo-scale: expected an integer from 1 to 1000/);
    expect(() => serve(["--demo", "--demo-latency", "fast"])).toThrow(/--demo-latency: expected an integer from 0 to 60000/);
    expect(() => serve(["--demo-scale", "5"])).toThrow(/--demo-scale: only with --demo/);
    expect(() => serve(["--demo", "--scale", "5"])).toThrow(/--scale: a flag of `pancake-mcp sandbox`; with --demo use --demo-scale/);
  });
});
