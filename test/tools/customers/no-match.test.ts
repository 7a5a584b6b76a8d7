import { describe, expect, it } from "vitest";
import type { CustomerRecord } from "../../../src/sandbox/pos/index.js";
import { useHarness } from "../../helpers/harness.js";

// "Find Mai Kim Lý": a name typed in another word order, or a letter off, finds nobody in the POS
// search. The answer offers the real customers whose names are near, each saying how, and never as
// matches. Expectations are read from the seeded customers.
const h = useHarness({ sandbox: { ratePerSecond: 10_000 } });
const pos = () => h.sandbox.pos;

const fold = (text: string) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/đ/g, "d").replace(/Đ/g, "D").toLowerCase();
/** Whether the POS search (the text inside a name, phone or email, accents aside) finds anyone. */
const anyoneHolds = (text: string) => pos().customers.some((c) => fold(c.name).includes(fold(text)) || c.phone_numbers.some((p) => p.includes(text)));
/** A customer of three words whose name no other customer shares. */
const unique = (ok: (c: CustomerRecord) => boolean) =>
  pos().customers.find((c) => c.name.split(" ").length === 3 && pos().customers.filter((x) => fold(x.name) === fold(c.name)).length === 1 && ok(c))!;
const customerGets = () => h.sandbox.server.requests.filter((r) => r.method === "GET" && /\/shops\/[^/]+\/customers$/.test(r.path)).length;

type Suggestion = { id: string; customer_name: string; phone?: string; why: string };

async function noMatch(search: string) {
  const before = customerGets();
  const r = await h.call("search_customers", { search });
  expect(r.isError, r.text).toBe(false);
  // Nobody matches: the list stays empty, the suggestions stand apart from it.
  expect(r.data.customers).toEqual([]);
  expect(r.data.total).toBe(0);
  for (const s of r.data.suggestions as Suggestion[]) {
    const record = pos().customers.find((c) => c.id === s.id)!;
    expect(record.name).toBe(s.customer_name);
  }
  expect(r.data.note).toContain("not matches");
  // The main search and at most three broader ones.
  expect(customerGets() - before).toBeLessThanOrEqual(4);
  return r.data.suggestions as Suggestion[];
}

describe("search_customers with no match", () => {
  it("offers the customer whose name was typed in another word order", async () => {
    const c = unique((x) => !anyoneHolds(x.name.split(" ").reverse().join(" ")));
    const typed = c.name.split(" ").reverse().join(" ");
    const [first] = await noMatch(typed);
    expect(first).toMatchObject({ id: c.id, customer_name: c.name, phone: c.phone_numbers[0], why: "word order" });
  });

  it("offers the customer one letter off, accents aside, and says so", async () => {
    const c = unique((x) => !anyoneHolds(`${x.name}x`));
    for (const typed of [`${c.name}x`, fold(`${c.name.slice(0, -1)}q`)]) {
      expect(anyoneHolds(typed)).toBe(false);
      const found = await noMatch(typed);
      expect(found[0]).toMatchObject({ id: c.id, why: "1 letter off" });
    }
  });

  it("says how the search matches, and offers nobody when no name is near", async () => {
    const r = await h.call("search_customers", { search: "Zyxw Qqq" });
    expect(r.data).toMatchObject({ customers: [], total: 0 });
    expect(r.data.suggestions).toBeUndefined();
    expect(r.data.note).toContain('"Zyxw Qqq"');
    expect(r.data.note).toContain("word order");
  });
});
