import { Random } from "./random.js";

/**
 * How the shop's POS knows a person who chats with its pages, as sellers' data has it: the POS
 * record made from the chat carries the page-scoped id (`page_id`) or the platform id
 * (`platform_id`); one made from a phone order carries the phone the chat gave (`phone`), another
 * number (`other_phone`: only the name links them), or another number and the short name the
 * staff typed, "C. Lan" (`shop_name`: nothing links them).
 */
export type ShopIdentity = "page_id" | "platform_id" | "phone" | "other_phone" | "shop_name";

/** Whether the shop's POS record of the person was made from their chat (it carries the chat's ids). */
export const madeFromChat = (person: Person) => person.identity === "page_id" || person.identity === "platform_id";

/** A customer both simulated upstreams know, linked across them as `identity` says. */
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
  identity: ShopIdentity;
  /** A number of theirs no chat shows (the POS has it for `other_phone` and `shop_name`). */
  otherPhone: string;
}

const IDENTITIES: [ShopIdentity, number][] = [
  ["page_id", 0.35],
  ["platform_id", 0.1],
  ["phone", 0.3],
  ["other_phone", 0.15],
  ["shop_name", 0.1],
];

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
  const people: Omit<Person, "identity" | "otherPhone">[] = [];
  const phones = new Set<string>();
  for (let index = 0; index < count; index++) {
    const gender = rng.chance(0.7) ? "female" : "male";
    const name = drawName(rng, gender);
    const phone = newPhone(rng, phones);
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
  // Their own generator: the people drawn above stay as they were.
  const links = new Random(seed ^ 0x6c696e6b);
  return people.map((person) => ({ ...person, identity: pickIdentity(links), otherPhone: newPhone(links, phones) }));
}

/** A Vietnamese full name: family, middle and given name. */
export function drawName(rng: Random, gender: Person["gender"]): string {
  return `${rng.pick(familyNames)} ${rng.pick(middleNames[gender])} ${rng.pick(givenNames[gender])}`;
}

/**
 * Copy `k` (1 and up) of every person, for a shop several times the size: the same gender,
 * birthday, address and way the POS knows them, under another name (never the original's), new
 * numbers nobody has (`phones` holds every number handed out; the copies' are added) and ids of
 * the same form. The ids are offsets the originals' cannot reach (a psid is 6e15 plus less than
 * 1e12, a platform id 1e14 plus less than 1e11), so each copy's are its own.
 */
export function copyPeople(people: readonly Person[], k: number, phones: Set<string>): Person[] {
  const rng = new Random(0x636f7079 + k * 7919);
  return people.map((person) => {
    let name = drawName(rng, person.gender);
    while (name === person.name) name = drawName(rng, person.gender);
    return {
      ...person,
      name,
      phone: newPhone(rng, phones),
      otherPhone: newPhone(rng, phones),
      psid: String(Number(person.psid) + k * 1e12),
      fbId: String(Number(person.fbId) + k * 1e11),
    };
  });
}

/** Every number the people have (theirs and the other one the POS may know). */
export const phonesOf = (people: readonly Person[]) => new Set(people.flatMap((p) => [p.phone, p.otherPhone]));

function pickIdentity(rng: Random): ShopIdentity {
  let roll = rng.next();
  for (const [identity, share] of IDENTITIES) {
    if (roll < share) return identity;
    roll -= share;
  }
  return "phone";
}

/** A mobile number nobody else has. */
function newPhone(rng: Random, taken: Set<string>): string {
  let phone: string;
  do phone = rng.pick(mobilePrefixes) + String(rng.int(0, 9_999_999)).padStart(7, "0");
  while (taken.has(phone));
  taken.add(phone);
  return phone;
}
