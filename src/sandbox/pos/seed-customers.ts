import type { Person } from "../people.js";
import type { Random } from "../random.js";
import { shippingAddress } from "./order-model.js";
import { DAY, iso } from "./time.js";
import type { CustomerNote, CustomerRecord, GeoData, UserRecord } from "./types.js";

const streets = ["Lê Lợi", "Trần Hưng Đạo", "Nguyễn Huệ", "Hai Bà Trưng", "Lý Thường Kiệt", "Phan Đình Phùng", "Điện Biên Phủ", "Hoàng Diệu"];
const noteTexts = [
  "Khách thích màu pastel, size M",
  "Hay đổi size, tư vấn kỹ trước khi chốt",
  "Khách quen, ưu tiên giao nhanh",
  "Chỉ nhận hàng sau 18h",
  "Đã tặng voucher 50k lần trước",
];

/** One shop customer per person, with the person's phone so chats and orders link up. */
export function seedCustomers(rng: Random, now: number, people: Person[], geo: GeoData, users: UserRecord[]) {
  const customers: CustomerRecord[] = people.map((person) => {
    const commune = geo.communes[person.addressIndex % geo.communes.length]!;
    const street = `${rng.int(1, 250)} ${rng.pick(streets)}`;
    const address = shippingAddress(geo, commune.id, street, person.name, person.phone);
    const at = iso(now - rng.int(95, 400) * DAY);
    return {
      id: rng.uuid(),
      customer_id: rng.uuid(),
      name: person.name,
      gender: person.gender,
      emails: rng.chance(0.3) ? [`khach${person.index}@gmail.com`] : [],
      phone_numbers: [person.phone],
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
          full_name: person.name,
          phone_number: person.phone,
        },
      ],
      order_count: 0,
      succeed_order_count: 0,
      purchased_amount: 0,
      last_order_at: null,
      fb_id: person.fbId,
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
  return { customers, notes };
}
