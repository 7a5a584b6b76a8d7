import { getEventListeners } from "node:events";
import { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BadResponseError,
  InputError,
  OutcomeUnknownError,
  UpstreamError,
} from "../../src/clients/errors.js";
import { HttpCore, pathOf } from "../../src/clients/http.js";
import { redact, registerSecret } from "../../src/text/redact.js";
import { Logger } from "../../src/log.js";

const ORIGIN = "https://pages.example";
const TOKEN = "SENTINEL-user-token-7f3a9c";

let agent: MockAgent;
let lines: string[];
let logger: Logger;

function core(extra: Partial<ConstructorParameters<typeof HttpCore>[0]> = {}) {
  return new HttpCore({
    baseUrl: `${ORIGIN}/api`,
    dispatcher: agent,
    logger,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...extra,
  });
}

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  lines = [];
  logger = new Logger("debug", false);
  logger.addSink((_level, line) => lines.push(line));
});

afterEach(async () => {
  await agent.close();
});

describe("redaction", () => {
  it("keeps the token out of errors and log lines, even when the upstream echoes it", async () => {
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: (p) => p.startsWith("/api/v1/pages"), method: "GET" })
      .reply(200, { success: false, error_code: 102, message: `Invalid access_token ${TOKEN}` });
    const error = await caught(core().request({ op: "list pages", path: "/v1/pages", auth: { access_token: TOKEN } }));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).code).toBe(102);
    const everything = [error.message, (error as UpstreamError).hint ?? "", ...lines].join("\n");
    expect(lines.some((l) => l.includes("/v1/pages?access_token=[redacted]"))).toBe(true);
    expect(everything).not.toContain(TOKEN);
  });

  it("redacts registered secrets wherever they appear and token params by name", () => {
    registerSecret("SENTINEL-pos-key-41c2");
    expect(redact("key SENTINEL-pos-key-41c2 leaked")).toBe("key [redacted] leaked");
    expect(redact("GET /x?api_key=abc&page_access_token=def&b=1")).toBe(
      "GET /x?api_key=[redacted]&page_access_token=[redacted]&b=1",
    );
    expect(redact('{"access_token": "zzz"}')).toBe('{"access_token": "[redacted]"}');
  });

  it("puts credentials only in the query string and never into error text of a failed HTML page", async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.includes("page_access_token="), method: "GET" })
      .reply(502, `<html><body>Bad gateway for /api?page_access_token=${TOKEN}</body></html>`)
      .times(3);
    const error = await caught(
      core().request({ op: "list tags", path: "/public_api/v1/pages/1/tags", auth: { page_access_token: TOKEN } }),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toContain("HTTP 502");
    expect(error.message).not.toContain(TOKEN);
  });
});

describe("retries", () => {
  it("retries a read on 5xx and then succeeds", async () => {
    const pool = agent.get(ORIGIN);
    let calls = 0;
    pool
      .intercept({ path: "/api/v1/x", method: "GET" })
      .reply<Record<string, unknown>>(() => {
        calls++;
        return calls < 3 ? { statusCode: 503, data: { success: false } } : { statusCode: 200, data: { success: true, n: 1 } };
      })
      .times(3);
    await expect(core().request({ op: "read x", path: "/v1/x" })).resolves.toEqual({ success: true, n: 1 });
    expect(calls).toBe(3);
  });

  it("never retries a write", async () => {
    let calls = 0;
    agent
      .get(ORIGIN)
      .intercept({ path: "/api/v1/send", method: "POST" })
      .reply(() => {
        calls++;
        return { statusCode: 503, data: { success: false, message: "busy" } };
      })
      .times(3);
    const error = await caught(core().request({ op: "send", method: "POST", path: "/v1/send", body: { a: 1 } }));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(calls).toBe(1);
  });

  it("reports a write whose answer was lost as outcome unknown", async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: "/api/v1/send", method: "POST" })
      .replyWithError(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }));
    const error = await caught(core().request({ op: "send message", method: "POST", path: "/v1/send", body: {} }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toContain("outcome unknown");
  });

  it("honours Retry-After on 429", async () => {
    let calls = 0;
    agent
      .get(ORIGIN)
      .intercept({ path: "/api/v1/x", method: "GET" })
      .reply<Record<string, unknown>>(() => {
        calls++;
        return calls === 1
          ? { statusCode: 429, data: { success: false, error_code: 106 }, responseOptions: { headers: { "retry-after": "1" } } }
          : { statusCode: 200, data: { success: true } };
      })
      .times(2);
    const started = Date.now();
    await core().request({ op: "read x", path: "/v1/x" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(calls).toBe(2);
  });

  it("gives up when Retry-After exceeds the retry budget", async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: "/api/v1/x", method: "GET" })
      .reply(429, { success: false, error_code: 106, message: "You have reached the limit of requests" }, { headers: { "retry-after": "120" } });
    const error = await caught(core().request({ op: "read x", path: "/v1/x" }));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).hint).toMatch(/Rate limited/);
  });
});

describe("rate limiter", () => {
  it("holds each page at 5 calls per second by queueing, not failing", async () => {
    const starts: number[] = [];
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith("/api/public_api/v1/pages/p1/"), method: "GET" })
      .reply(() => {
        starts.push(Date.now());
        return { statusCode: 200, data: { success: true } };
      })
      .times(12);
    const c = core({ ratePerSecond: 5 });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => c.request({ op: "tags", path: `/public_api/v1/pages/p1/t${i}`, rateKey: "p1" })),
    );
    expect(results).toHaveLength(12);
    starts.sort((a, b) => a - b);
    for (let i = 5; i < starts.length; i++) expect(starts[i]! - starts[i - 5]!).toBeGreaterThanOrEqual(990);
    expect(starts[11]! - starts[0]!).toBeGreaterThanOrEqual(1990);
  });

  it("does not slow other pages", async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith("/api/p/"), method: "GET" })
      .reply(200, { success: true })
      .times(10);
    const c = core({ ratePerSecond: 5 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 10 }, (_, i) => c.request({ op: "x", path: `/p/${i}`, rateKey: `page-${i}` })));
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe("one call's cancellation signal", () => {
  it("is listened to once however many requests and rate-limit waits share it, and ends them all", async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: (p) => p.startsWith("/api/public_api/v1/pages/p1/"), method: "GET" })
      .reply(200, { success: true })
      .delay(300)
      .times(12);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const call = new AbortController();
      const c = core({ ratePerSecond: 2 });
      // Two requests in flight and ten waiting for the limiter, all on the one call's signal.
      const all = Array.from({ length: 12 }, (_, i) =>
        caught(c.request({ op: "tags", path: `/public_api/v1/pages/p1/t${i}`, rateKey: "p1", signal: call.signal })),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(getEventListeners(call.signal, "abort")).toHaveLength(1);
      call.abort();
      const errors = await Promise.all(all);
      for (const error of errors) expect(error.message).toContain("cancelled by the client");
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("error mapping", () => {
  it("maps HTTP 200 success:false with e_code/e_subcode", async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: "/api/v1/send", method: "POST" })
      .reply(200, { success: false, e_code: 10, e_subcode: 2018278, message: "(#10) This message is sent outside of allowed window." });
    const error = (await caught(core().request({ op: "send inbox message", method: "POST", path: "/v1/send", body: {} }))) as UpstreamError;
    expect(error.code).toBe(10);
    expect(error.subcode).toBe(2018278);
    expect(error.message).toContain("send inbox message failed");
    expect(error.hint).toMatch(/24 hours/);
  });

  it("maps POS 403 bodies with the permission", async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: "/api/x", method: "GET" })
      .reply(403, { success: false, message: "Insufficient permissions", permission: "order.view" });
    const error = (await caught(core().request({ op: "search orders", path: "/x" }))) as UpstreamError;
    expect(error.status).toBe(403);
    expect(error.message).toContain("permission: order.view");
    expect(error.hint).toMatch(/permission/);
  });

  it("reports a non-JSON 200 body with its status and a short snippet", async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: "/api/x", method: "GET" })
      .reply(200, "<html><body>Maintenance until 10:00</body></html>");
    const error = await caught(core({ retry: { attempts: 1 } }).request({ op: "list shops", path: "/x" }));
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.message).toContain("HTTP 200");
    expect(error.message).toContain("Maintenance until 10:00");
  });
});

describe("pathOf", () => {
  it("encodes ids so they cannot change the path", () => {
    expect(pathOf`/pages/${"a/b?c#d"}/x`).toBe("/pages/a%2Fb%3Fc%23d/x");
    expect(() => pathOf`/pages/${".."}/x`).toThrow(InputError);
    expect(() => pathOf`/pages/${""}/x`).toThrow(InputError);
  });
});
