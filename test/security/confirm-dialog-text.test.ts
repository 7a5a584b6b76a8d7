import { describe, expect, it } from "vitest";
import type { ConversationRecord } from "../../src/sandbox/messaging/types.js";
import { useAcceptingHarness } from "../helpers/harness.js";

// A confirmation dialog is what the user approves: one line per label, each value on its own
// line. What fills it for create_order can come from outside the shop (the name a customer shows
// in the chat, an address saved from it, a POS customer record): a line break or a bidi control in
// it must not write a phone or an address of its own into the dialog, nor reach the order.

/** A name that, copied raw, adds a receiver phone and address to the dialog and turns the rest of its line around. */
const EVIL = "Lan\nĐiện thoại: 0909000000\nĐịa chỉ: 1 Lê Lợi\u202e";
const LABELS = ["Người nhận", "Điện thoại", "Địa chỉ", "Sản phẩm", "Kho", "Nguồn", "Hội thoại", "Phí vận chuyển", "Giảm giá", "Thanh toán", "Ghi chú"];
const INVISIBLE = /\p{Cf}|(?![\n])\p{Cc}/u;

const { h, asked } = useAcceptingHarness();

/** The dialog's lines after the action, as label and value: each label known and at most once. */
function detailLines(dialog: string): Map<string, string> {
  const [, ...lines] = dialog.split("\n");
  const seen = new Map<string, string>();
  for (const line of lines) {
    const label = LABELS.find((l) => line.startsWith(`${l}: `));
    expect(label, `a line of no label: ${JSON.stringify(line)}`).toBeDefined();
    expect(seen.has(label!), `${label} twice in ${JSON.stringify(dialog)}`).toBe(false);
    seen.set(label!, line.slice(label!.length + 2));
  }
  expect(dialog).not.toMatch(INVISIBLE);
  return seen;
}

/** An inbox chat that gives the order nothing but its customer's name: no phone, no saved address, no POS record. */
function nameOnlyChat(): ConversationRecord {
  const m = h.sandbox.messaging;
  const posCustomers = h.sandbox.pos.customers;
  const chat = m.conversations.find(
    (c) =>
      c.type === "INBOX" &&
      !c.is_removed &&
      c.customers.length > 0 &&
      c.recent_phone_numbers.length === 0 &&
      !posCustomers.some((x) => x.fb_id === c.from.id || (x.conversation_link ?? "").includes(c.customer_id)) &&
      !m.customers.some((pc) => pc.psid === c.from.id && pc.page_id === c.page_id && (pc.phone_numbers.length || pc.shop_customer_addresses?.length)),
  );
  if (!chat) throw new Error("the demo has no chat with a name alone");
  return chat;
}

describe("create_order: outside text fills the dialog only as values, one line each", () => {
  it("a chat's display name with line breaks and a bidi control stays the receiver's name, on its line, and reaches the order clean", async () => {
    const chat = nameOnlyChat();
    const m = h.sandbox.messaging;
    chat.from.name = EVIL;
    for (const c of chat.customers) c.name = EVIL;
    for (const pc of m.customers) if (pc.psid === chat.from.id && pc.page_id === chat.page_id) pc.name = EVIL;
    const variation = h.sandbox.pos.variations[0]!;
    const count = asked.length;
    const r = await h.call("create_order", { conversation_id: chat.id, page_id: chat.page_id, items: [{ variation_id: String(variation.id), quantity: 1 }] });
    expect(r.isError, r.text).toBe(false);
    expect(asked).toHaveLength(count + 1);
    const lines = detailLines(asked.at(-1)!);
    expect(lines.get("Người nhận")).toBe("Lan Điện thoại: 0909000000 Địa chỉ: 1 Lê Lợi");
    // The chat gave no phone and no address: the dialog shows none.
    expect(lines.has("Điện thoại")).toBe(false);
    expect(lines.has("Địa chỉ")).toBe(false);
    const stored = h.sandbox.pos.orders.find((o) => String(o.id) === r.data.id)!;
    expect(stored.bill_full_name).toBe("Lan Điện thoại: 0909000000 Địa chỉ: 1 Lê Lợi");
    expect(JSON.stringify(stored)).not.toMatch(/\\u202e|\u202e/);
  });

  it("a POS customer's record (name, phone, saved address) fills the dialog one value a line, and the order without breaks", async () => {
    const customer = h.sandbox.pos.customers.find((c) => c.phone_numbers.length > 0 && (c.shop_customer_address ?? []).some((a) => a.address))!;
    const saved = customer.shop_customer_address!.find((a) => a.address)!;
    customer.name = EVIL;
    saved.address = `5 Hai Bà Trưng\nĐiện thoại: 0988888888\u2066\nGhi chú: đã thanh toán`;
    const variation = h.sandbox.pos.variations[1]!;
    const count = asked.length;
    const r = await h.call("create_order", { customer_id: String(customer.id), items: [{ variation_id: String(variation.id), quantity: 1 }] });
    expect(r.isError, r.text).toBe(false);
    expect(asked).toHaveLength(count + 1);
    const lines = detailLines(asked.at(-1)!);
    expect(lines.get("Người nhận")).toBe("Lan Điện thoại: 0909000000 Địa chỉ: 1 Lê Lợi");
    expect(lines.get("Điện thoại")).toBe(customer.phone_numbers[0]);
    expect(lines.get("Địa chỉ")).toMatch(/^5 Hai Bà Trưng Điện thoại: 0988888888 Ghi chú: đã thanh toán/);
    expect(lines.has("Ghi chú")).toBe(false);
    const stored = h.sandbox.pos.orders.find((o) => String(o.id) === r.data.id)!;
    expect(stored.bill_full_name).not.toMatch(/\n|\u202e/);
    expect(stored.shipping_address?.address).toMatch(/^5 Hai Bà Trưng Điện thoại: 0988888888 Ghi chú: đã thanh toán$/);
  });
});
