import { ProtocolError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { useSandboxStdio } from "../helpers/stdio-client.js";

describe("resource templates take only ids a tool would take; what does not exist is -32602 naming the URI", () => {
  const h = useSandboxStdio();

  async function notFound(uri: string) {
    const before = h.sandbox.server.requests.length;
    const error = await h.server.client.readResource({ uri }).then(
      () => undefined,
      (e: unknown) => e,
    );
    // Resource not found: -32602 with the URI as its data (MCP 2026-07-28, sent so in every era).
    expect(error, uri).toBeInstanceOf(ProtocolError);
    expect(error, uri).toMatchObject({ code: -32602, data: { uri } });
    return h.sandbox.server.requests.slice(before);
  }

  it("refuses ids that would steer the upstream request, before sending anything", async () => {
    for (const uri of [
      "pancake://pages/1&api_key=attacker&x=1/tags",
      "pancake://pages/..%2F..%2Fv1%2Fpages/users",
      "pancake://pages/%2E%2E/tags",
      "pos://geo/provinces/1%3Fapi_key%3Dx/districts",
      `pos://geo/districts/${"9".repeat(8000)}/communes`,
    ]) {
      // A page may be given by name (as in the tools): reading the page list to look a name up is
      // the one request allowed, and it carries nothing of the URI.
      const sent = (await notFound(uri)).filter((r) => !(r.method === "GET" && r.path.endsWith("/api/v1/pages") && !JSON.stringify(r.query).includes("attacker")));
      expect(sent, uri).toEqual([]);
    }
  });

  it("refuses prototype keys as a status table", async () => {
    for (const table of ["__proto__", "constructor", "toString", "nope"]) await notFound(`pos://status-codes/${table}`);
  });

  it("answers not found for URIs that name nothing and records the upstream does not have", async () => {
    await notFound("pancake://nothing");
    await notFound("pancake://pages/999999/tags");
    await notFound("pos://geo/provinces/999999/districts");
    await notFound("pos://geo/districts/999999/communes");
  });

  it("still reads real ones", async () => {
    const page = h.sandbox.messaging.pages[0]!.id;
    const province = h.sandbox.pos.geo.provinces[0]!;
    for (const uri of [`pancake://pages/${page}/tags`, "pos://status-codes/orders", `pos://geo/provinces/${province.id}/districts`]) {
      const read = await h.server.client.readResource({ uri });
      expect(JSON.stringify(read.contents[0]), uri).toMatch(/"text":"\{/);
    }
  });
});
