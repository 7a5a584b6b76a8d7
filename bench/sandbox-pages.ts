// What a list page of the simulated upstream costs at a given size: the reads the shop index and
// the tools make, each answered by the sandbox's own router in its own process (no socket, no
// latency), so the figure is the rig's CPU per page, which must not grow with the shop (issue 41).
import { performance } from "node:perf_hooks";
import type { Sandbox } from "../src/sandbox/index.js";
import { routerGet } from "../test/helpers/router-call.js";

const DAY_S = 86_400;
/** Each read timed this many times; the median counts. */
const TIMES = 9;

/** A read: its label, path and query (Unix seconds from the sandbox's now). */
type Read = [label: string, path: string, query: Record<string, string | number>];

function reads(sandbox: Sandbox): Read[] {
  const c = sandbox.credentials;
  const now = Math.floor(sandbox.now.getTime() / 1000);
  const page = sandbox.messaging.pages[0]!.id;
  const orders = `/pos/api/v1/shops/${c.shopId}/orders`;
  const pos = { api_key: c.posApiKey };
  const inbox = { page_access_token: c.pageTokens[page]! };
  const fields = { "fields[]": "id" };
  const window = { updateStatus: "updated_at", startDateTime: now - 20 * DAY_S, endDateTime: now - 6 * DAY_S };
  return [
    ["orders, newest first, page 50", orders, { ...pos, page_size: 100, page_number: 50 }],
    ["orders updated in 14 days, oldest update first, page 3 (the index's window)", orders, { ...pos, ...window, option_sort: "last_updated_order_asc", page_size: 100, page_number: 3, ...fields }],
    ["orders updated in 14 days, counted (page_size 1)", orders, { ...pos, ...window, page_size: 1, ...fields }],
    ["orders created this month, page 2", orders, { ...pos, updateStatus: "inserted_at", startDateTime: now - 21 * DAY_S, page_size: 100, page_number: 2 }],
    ["a customer's latest orders", orders, { ...pos, customer_id: sandbox.pos.orders.at(-1)!.shop_customer_id!, page_size: 5 }],
    ["conversations, first page", `/api/public_api/v2/pages/${page}/conversations`, inbox],
    ["conversations updated in 30 days", `/api/public_api/v2/pages/${page}/conversations`, { ...inbox, since: now - 40 * DAY_S, until: now - 10 * DAY_S }],
    ["conversations by page number, counted", `/api/public_api/v1/pages/${page}/conversations`, { ...inbox, since: now - 30 * DAY_S, until: now, page_number: 2, order_by: "updated_at" }],
    ["customers, page 3", `/pos/api/v1/shops/${c.shopId}/customers`, { ...pos, page_size: 100, page_number: 3 }],
  ];
}

/** Median ms per read, its JSON included (what the answer costs to send), and a search's (which reads every order). */
export function timePages(sandbox: Sandbox): { pages: Record<string, number>; search: number } {
  const median = (run: () => void) => {
    const times: number[] = [];
    for (let i = 0; i < TIMES; i++) {
      const t0 = performance.now();
      run();
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b)[Math.floor(TIMES / 2)]!;
  };
  const pages: Record<string, number> = {};
  for (const [label, path, query] of reads(sandbox)) pages[label] = median(() => JSON.stringify(routerGet(sandbox, path, query)));
  const c = sandbox.credentials;
  const phone = sandbox.pos.orders.at(-1)!.bill_phone_number.slice(2, 7);
  const search = median(() => JSON.stringify(routerGet(sandbox, `/pos/api/v1/shops/${c.shopId}/orders`, { api_key: c.posApiKey, search: phone, page_size: 30 })));
  return { pages, search };
}
