import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCore } from "../../src/clients/http.js";
import { MessagingClient } from "../../src/clients/messaging.js";
import { AMENDMENTS } from "../../src/clients/openapi/allow-list.js";
import { checkRequest, findOperation } from "../../src/clients/openapi/match.js";
import type { Schema } from "../../src/clients/openapi/types.js";
import {
  DEBT_STATUSES,
  ORDER_STATUSES,
  ORDER_TIME_STATUSES,
  PAYMENT_TYPES,
  RETURN_ORDER_STATUSES,
  TRANSACTION_STATUSES,
} from "../../src/clients/pos-codes.js";
import { PosClient } from "../../src/clients/pos.js";
import { Sandbox, upstreamPath } from "../../src/sandbox/index.js";
import {
  EXPORT_STATUSES,
  EXPORT_TYPES,
  PURCHASE_STATUSES,
  STOCKTAKING_STATUSES,
  TRANSFER_STATUSES,
} from "../../src/tools/inventory/codes.js";
import { buildIndex, EXAMPLES_FILE, examplesOf, INDEX_FILE, serialize, serializeExamples } from "../../scripts/gen-openapi-index.js";
import { readFileSync } from "node:fs";
import { type ContractRecorder, INDEX, recordContract } from "./recorder.js";

const op = (id: string) => {
  const found = INDEX.operations.find((o) => o.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};
const param = (id: string, name: string): Schema => op(id).params.find((p) => p.name === name)!.schema;
const codes = (rows: readonly { code: number }[]) => rows.map((r) => r.code).sort((a, b) => a - b);
const sorted = (values: unknown[] | undefined) => [...(values ?? [])].map(Number).sort((a, b) => a - b);

describe("the operation index", () => {
  it("is what the generator makes of the vendor's files today (npm run openapi), and so are the sandbox's examples", () => {
    const index = buildIndex();
    expect(readFileSync(INDEX_FILE, "utf8")).toBe(serialize(index));
    expect(readFileSync(EXAMPLES_FILE, "utf8")).toBe(serializeExamples(examplesOf(index)));
  });

  it("holds every operation of both OpenAPI files and both seed specs", () => {
    const bySource = (source: string) => INDEX.operations.filter((o) => o.source === source).length;
    // 31 messaging + 102 POS operations; the seed adds 5 messaging ones; the older POS document 7.
    expect(INDEX.operations.filter((o) => o.source === "openapi" && o.api === "messaging")).toHaveLength(31);
    expect(INDEX.operations.filter((o) => o.source === "openapi" && o.api === "pos")).toHaveLength(102);
    expect(bySource("seed")).toBe(5);
    expect(bySource("older")).toBe(7);
  });

  it("keeps a short allow-list, each entry reasoned", () => {
    expect(AMENDMENTS.length).toBeLessThan(10);
    for (const entry of AMENDMENTS) expect(entry.why.length, entry.op).toBeGreaterThan(60);
  });

  it("matches literal segments before parameters", () => {
    expect(findOperation(INDEX.operations, "pos", "GET", "/shops/1/orders/tags")?.op.id).toBe("pos GET /shops/{shop_id}/orders/tags");
    expect(findOperation(INDEX.operations, "pos", "GET", "/shops/1/orders/123")?.pathParams).toEqual({ shop_id: "1", order_id: "123" });
  });
});

describe("code tables hold every code the OpenAPI enumerates", () => {
  it("order statuses (canceled, waiting for confirmation, deleted recently included)", () => {
    const status = op("pos PUT /shops/{shop_id}/orders/{order_id}").body!.schema.properties!.status!;
    expect(codes(ORDER_STATUSES)).toEqual(sorted(status.enum));
    const timed = (param("pos GET /shops/{shop_id}/orders", "updateStatus").enum as string[]).filter((v) => /^\d+$/.test(v));
    expect(codes(ORDER_TIME_STATUSES)).toEqual(sorted(timed));
  });

  it("return orders, transactions, debts, purchases, exports, transfers and stocktakings", () => {
    const returnTimes = (param("pos GET /shops/{shop_id}/orders_returned", "update_status").enum as string[]).filter((v) => /^\d+$/.test(v));
    expect(codes(RETURN_ORDER_STATUSES)).toEqual(sorted(returnTimes));
    expect(codes(TRANSACTION_STATUSES)).toEqual(sorted(param("pos GET /shops/{shop_id}/transactions", "status").enum));
    expect(codes(DEBT_STATUSES)).toEqual(sorted(param("pos GET /shops/{shop_id}/debt", "status").enum));
    expect(codes(PURCHASE_STATUSES)).toEqual(sorted(param("pos GET /shops/{shop_id}/purchases", "status").enum));
    expect(codes(EXPORT_STATUSES)).toEqual(sorted(param("pos GET /shops/{shop_id}/export", "status").enum));
    expect(codes(EXPORT_TYPES)).toEqual(sorted(param("pos GET /shops/{shop_id}/export", "type").enum));
    expect(codes(TRANSFER_STATUSES)).toEqual(sorted(param("pos GET /shops/{shop_id}/transfers", "status").enum));
    expect(codes(STOCKTAKING_STATUSES)).toEqual(sorted(param("pos GET /shops/{shop_id}/stocktakings", "status").enum));
  });

  it("payment channels are the OpenAPI's names, not the seed's neutral ones", () => {
    const payments = op("pos POST /shops/{shop_id}/transactions").body!.schema.properties!.transaction!.properties!.payments!;
    expect([...PAYMENT_TYPES].sort()).toEqual([...(payments.items!.enum as string[])].sort());
  });
});

describe("the contract check itself", () => {
  let sandbox: Sandbox;
  let recorder: ContractRecorder;
  let pos: PosClient;
  let messaging: MessagingClient;
  const cores: HttpCore[] = [];
  beforeAll(async () => {
    sandbox = new Sandbox({ ratePerSecond: 10_000 });
    const urls = await sandbox.start();
    recorder = recordContract(sandbox);
    const core = (baseUrl: string) => {
      const made = new HttpCore({ baseUrl, retry: { attempts: 1 } });
      cores.push(made);
      return made;
    };
    pos = new PosClient({ core: core(urls.posBaseUrl), apiKeys: {}, defaultKey: sandbox.credentials.posApiKey });
    messaging = new MessagingClient({ core: core(urls.messagingBaseUrl), pageTokens: sandbox.credentials.pageTokens });
  });
  afterAll(async () => {
    recorder.stop();
    await Promise.all(cores.map((c) => c.close()));
    await sandbox.close();
  });

  it("fails a client that sends a query parameter the operation does not take", async () => {
    const shop = sandbox.credentials.shopId;
    await pos.listOrders(shop, { page_size: 1, sort_by_total: "desc" } as never);
    expect(recorder.take().join("\n")).toContain("pos GET /shops/{shop_id}/orders: query.sort_by_total: not a parameter of this operation");
    await messaging.listPosts(sandbox.messaging.pages[0]!.id, { since: 1, until: 2, page_number: 1, page_size: 30, order: "x" } as never);
    expect(recorder.take().join("\n")).toContain("query.order: not a parameter of this operation");
  });

  it("fails a client that sends a body field the operation does not document, or of the wrong type", async () => {
    const shop = sandbox.credentials.shopId;
    const variation = sandbox.pos.variations[0]!;
    await pos.createOrder(shop, { items: [{ variation_id: variation.id, quantity: 1 }], gift_wrap: true });
    expect(recorder.take().join("\n")).toContain("pos POST /shops/{shop_id}/orders: body.gift_wrap: is not a documented field");
    await pos.createTransaction(shop, { name: "x", amount: "100" }).catch(() => undefined);
    expect(recorder.take().join("\n")).toContain('body.transaction.amount: expected integer, got "100"');
  });

  it("fails a request with no documented operation, or the wrong credential", () => {
    const problems = (path: string, query: Record<string, string[]>) =>
      checkRequest(INDEX.operations, { api: "pos", method: "GET", path, query }).problems.join("\n");
    expect(problems("/shops/1/orders/123/notes", { api_key: ["k"] })).toContain("no documented operation");
    expect(problems("/shops/1/orders", {})).toContain("query.api_key: the credential is missing");
    expect(problems("/shops/1/orders", { api_key: ["k"], access_token: ["t"] })).toContain("query.access_token: this operation takes api_key");
    expect(problems("/shops/x/orders", { api_key: ["k"] })).toContain("path.shop_id: expected integer");
    expect(problems("/shops/1/orders", { api_key: ["k"], page_size: ["ten"] })).toContain('query.page_size: expected integer, got "ten"');
    expect(problems("/shops/1/orders", { api_key: ["k"], search: ["a", "b"] })).toContain("query.search: sent 2 times");
  });

  it("holds the sandbox to the same index: every route it serves is a documented operation", () => {
    const undocumented = sandbox.server.router
      .list()
      .map((route) => ({ route, upstream: upstreamPath(route.path) }))
      .filter(({ upstream }) => upstream !== undefined)
      .filter(({ route, upstream }) => {
        const path = upstream!.path.replace(/:(\w+)/g, "x$1");
        return !findOperation(INDEX.operations, upstream!.api, route.method, path);
      })
      .map(({ route }) => `${route.method} ${route.path}`);
    expect(undocumented).toEqual([]);
  });
});
