import { madeFromChat, type Person } from "../people.js";
import type { Random } from "../random.js";
import { shippingAddress } from "./order-model.js";
import type { InboxLinks } from "./seed-links.js";
import { DAY, iso } from "./time.js";
import type { PosState } from "./state.js";
import type { CustomerNote, CustomerRecord, GeoData, UserRecord } from "./types.js";

const streets = ["Lê Lợi", "Trần Hưng Đạo", "Nguyễn Huệ", "Hai Bà Trưng", "Lý Thường Kiệt", "Phan Đình Phùng", "Điện Biên Phủ", "Hoàng Diệu"];
const noteTexts = [
  "Khách thích màu pastel, size M",
  "Hay đổi size, tư vấn kỹ trước khi chốt",
  "Khách quen, ưu tiên giao nhanh",
  "Chỉ nhận hàng sau 18h",
  "Đã tặng voucher 50k lần trước",
];

/** The name staff type for a customer they know: "C. Lan" (chị Lan), "A. Tuấn" (anh Tuấn). */
export const shortName = (person: Person) => `${person.gender === "female" ? "C." : "A."} ${person.name.split(" ").at(-1)}`;

/**
 * One shop customer per person, known to the POS as the person's identity says (people.ts): by
 * the chat's ids, the phone the chat gave, or another number. The customer list's `fb_id`,
 * `pages_customers` and `conversation_link` are the Customer fields of the vendor's OpenAPI.
 */
export function seedCustomers(rng: Random, now: number, people: Person[], geo: GeoData, users: UserRecord[], inbox?: InboxLinks) {
  const customers: CustomerRecord[] = people.map((person) => {
    const name = person.identity === "shop_name" ? shortName(person) : person.name;
    const phone = person.identity === "other_phone" || person.identity === "shop_name" ? person.otherPhone : person.phone;
    const commune = geo.communes[person.addressIndex % geo.communes.length]!;
    const street = `${rng.int(1, 250)} ${rng.pick(streets)}`;
    const address = shippingAddress(geo, commune.id, street, name, phone);
    const at = iso(now - rng.int(95, 400) * DAY);
    return {
      id: rng.uuid(),
      customer_id: rng.uuid(),
      name,
      gender: person.gender,
      emails: rng.chance(0.3) ? [`khach${person.index}@gmail.com`] : [],
      phone_numbers: [phone],
      date_of_birth: person.birthday,
      reward_point: 0,
      is_discount_by_level: true,
      tags: rng.chance(0.1) ? ["Hay hoàn"] : [],
      is_block: false,
      assigned_user_id: rng.pick(users).id,
      level_id: null,
      shop_customer_address: [
        {
          id: rng.uuid(),
          country_code: 84,
          province_id: address.province_id,
          district_id: address.district_id,
          commune_id: address.commune_id,
          address: street,
          full_address: address.full_address,
          full_name: name,
          phone_number: phone,
        },
      ],
      order_count: 0,
      succeed_order_count: 0,
      purchased_amount: 0,
      last_order_at: null,
      ...socialIds(person, inbox),
      inserted_at: at,
      updated_at: at,
    };
  });
  const notes: Record<string, CustomerNote[]> = {};
  for (const customer of customers) {
    if (!rng.chance(0.2)) continue;
    notes[customer.id] = Array.from({ length: rng.int(1, 2) }, () => {
      const author = rng.pick(users);
      return {
        id: rng.uuid(),
        message: rng.pick(noteTexts),
        images: [],
        order_id: null,
        created_at: Math.floor((now - rng.int(1, 80) * DAY) / 1000),
        updated_at: null,
        created_by: { uid: author.id, fb_id: author.fb_id, fb_name: author.name },
        edit_history: [],
      };
    });
  }
  // The psid each chat shows of a customer the POS knows by the chat: their orders name the thread (seed-links.ts).
  const psids = new Map(customers.flatMap((c, i) => (c.fb_id === null ? [] : [[c.id, people[i]!.psid] as const])));
  return { customers, notes, psids };
}

/**
 * Most people who chat and never buy are no customer of the POS: the records of customers with
 * nothing in the books (no order, debt, point or promotion) are left out, three in four. Run last,
 * with its own generator, so every other draw stays as it was.
 */
export function dropStrangers(state: PosState, rng: Random): void {
  const used = new Set<unknown>([
    ...state.orders.map((o) => o.shop_customer_id),
    ...state.returnOrders.map((r) => r.shop_customer_id),
    ...state.debts.map((d) => d.shop_customer_id),
    ...state.pointLogs.map((l) => l.shop_customer_id),
    ...state.customerPromotions.flatMap((p) => (Array.isArray(p.shop_customer_ids) ? p.shop_customer_ids : [])),
  ]);
  state.customers = state.customers.filter((c) => used.has(c.id) || !rng.chance(0.75));
  const kept = new Set(state.customers.map((c) => c.id));
  for (const id of Object.keys(state.customerNotes)) if (!kept.has(id)) delete state.customerNotes[id];
}

/**
 * What a POS record made from a chat carries: the customer's id on the platform (the page-scoped
 * id, or the platform-wide one), the pages they wrote to, and the link to their chat on the first
 * of them (`https://pancake.vn/<page id>?customer_id=<the inbox's customer id>`, the OpenAPI's form).
 */
function socialIds(person: Person, inbox: InboxLinks | undefined) {
  const social = madeFromChat(person);
  const shopPages = inbox?.pages ?? [];
  const theirs = social ? (inbox?.customers.filter((c) => c.psid === person.psid && shopPages.some((p) => p.id === c.page_id)) ?? []) : [];
  const pages = shopPages.filter((p) => theirs.some((c) => c.page_id === p.id));
  const first = theirs[0];
  return {
    fb_id: person.identity === "page_id" ? person.psid : person.identity === "platform_id" ? person.fbId : null,
    pages_customers: pages.map((p) => ({ id: p.id, name: p.name, platform: p.platform })),
    conversation_link: first ? `https://pancake.vn/${first.page_id}?customer_id=${first.customer_id}` : null,
  };
}
