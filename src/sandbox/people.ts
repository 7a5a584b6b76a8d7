import { Random } from "./random.js";

/** A customer both simulated upstreams know: the same phone links a chat to POS orders. */
export interface Person {
  index: number;
  name: string;
  gender: "male" | "female";
  phone: string;
  psid: string;
  fbId: string;
  birthday: string;
  /** Index into the address list of the POS seed. */
  addressIndex: number;
}

const familyNames = ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Huỳnh", "Phan", "Vũ", "Võ", "Đặng", "Bùi", "Đỗ", "Hồ", "Ngô", "Dương", "Lý"];
const middleNames = { male: ["Văn", "Đức", "Minh", "Quang", "Hữu", "Thành"], female: ["Thị", "Ngọc", "Thu", "Thanh", "Mỹ", "Kim"] };
const givenNames = {
  male: ["An", "Bình", "Cường", "Dũng", "Hùng", "Khoa", "Long", "Nam", "Phúc", "Quân", "Sơn", "Tuấn", "Việt", "Hải", "Tâm"],
  female: ["Anh", "Chi", "Dung", "Hà", "Hằng", "Hoa", "Lan", "Linh", "Mai", "Ngân", "Nhung", "Oanh", "Phương", "Thảo", "Trang", "Vy", "Yến"],
};
const mobilePrefixes = ["090", "091", "093", "094", "096", "097", "098", "032", "033", "035", "037", "038", "070", "077", "079", "081", "083", "085", "088"];

/** The shared pool of customers, deterministic for a seed. */
export function makePeople(count: number, seed = 20261122): Person[] {
  const rng = new Random(seed);
  const people: Person[] = [];
  const phones = new Set<string>();
  for (let index = 0; index < count; index++) {
    const gender = rng.chance(0.7) ? "female" : "male";
    const name = `${rng.pick(familyNames)} ${rng.pick(middleNames[gender])} ${rng.pick(givenNames[gender])}`;
    let phone: string;
    do phone = rng.pick(mobilePrefixes) + String(rng.int(0, 9_999_999)).padStart(7, "0");
    while (phones.has(phone));
    phones.add(phone);
    const year = rng.int(1975, 2005);
    const birthday = `${year}-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`;
    people.push({
      index,
      name,
      gender,
      phone,
      psid: String(6_000_000_000_000_000 + rng.int(0, 999_999_999) * 1000 + index),
      fbId: String(100_000_000_000_000 + rng.int(0, 999_999_999) * 100 + index),
      birthday,
      addressIndex: rng.int(0, 1_000_000),
    });
  }
  return people;
}
