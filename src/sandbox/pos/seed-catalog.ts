import type { Random } from "../random.js";
import { asciiName } from "./geo-data.js";
import { DAY, iso } from "./time.js";
import type {
  CategoryRecord,
  CustomerLevelRecord,
  GeoData,
  OrderSourceRecord,
  PartnerRecord,
  ProductRecord,
  ShopRecord,
  UserRecord,
  VariationRecord,
  WarehouseRecord,
} from "./types.js";

export const SHOP_ID = 1_942_870;

/** A social page the shop sells through (a page of the inbox when the sandbox links the two). */
export interface ShopPage {
  id: string;
  name: string;
  platform: string;
}

/** The shop's own pages when no inbox is linked (a bare POS seed). */
const OWN_PAGES: ShopPage[] = [
  { id: "109876543210001", name: "Mây Fashion - Thời trang nữ", platform: "facebook" },
  { id: "109876543210002", name: "Mây Fashion Outlet", platform: "facebook" },
  { id: "ig_17841400000000001", name: "mayfashion.vn", platform: "instagram_official" },
];
/** A Zalo OA the inbox does not serve: a POS shop may sell through pages the inbox never sees. */
const ZALO_OA: ShopPage = { id: "zl_4310000000000001", name: "Mây Fashion Zalo OA", platform: "zalo" };

export function seedShop(rng: Random, now: number, marketer: UserRecord, inboxPages: ShopPage[] = []): ShopRecord {
  const pages = [...(inboxPages.length ? inboxPages : OWN_PAGES), ZALO_OA].map((p) => ({
    ...p,
    settings: { auto_create_order: p.platform === "facebook" },
    shop_id: SHOP_ID,
  }));
  return {
    id: SHOP_ID,
    name: "Mây Fashion",
    avatar_url: "https://content.pancake.vn/sandbox/may-fashion.png",
    pages,
    link_post_marketer: [
      {
        id: rng.uuid(),
        inserted_at: iso(now - 40 * DAY),
        marketer: marketer.id,
        ad_account_id: null,
        multiple_post: [],
        multiple_source: [{ account: pages[0]!.id, key: "-1", page_id: pages[0]!.id }],
        shop_id: SHOP_ID,
        type: "source",
      },
    ],
  };
}

const staff: [string, string][] = [
  ["Nguyễn Thu Trang", "Quản lý"],
  ["Lê Minh Khoa", "Sales"],
  ["Phạm Ngọc Hân", "Sales"],
  ["Trần Bảo Long", "Kho"],
  ["Võ Thanh Tâm", "Marketing"],
  ["Đỗ Kim Ngân", "CSKH"],
];

export function seedUsers(rng: Random): UserRecord[] {
  return staff.map(([name, department], i) => ({
    id: rng.uuid(),
    name,
    email: `staff${i + 1}@mayfashion.vn`,
    fb_id: String(100_004_000_000_000 + i * 7919),
    phone_number: i === 0 ? "0901234567" : null,
    department: { id: 900 + i, name: department },
  }));
}

export const PARTNERS: PartnerRecord[] = [
  { id: 1, name: "Giao hàng tiết kiệm" },
  { id: 5, name: "Giao hàng nhanh" },
  { id: 7, name: "VNP" },
  { id: 11, name: "Ahamove" },
  { id: 15, name: "J&T" },
  { id: 19, name: "Ninja Van" },
  { id: 32, name: "SuperShip" },
  { id: 37, name: "Grab Express" },
];

/** Same-city couriers (app-based, same-day): they carry a parcel only within one province. */
export const SAME_CITY_PARTNERS: ReadonlySet<number> = new Set([11, 37]);

/** Top-level sources carry negative ids; accounts (pages, OAs) hang below them by parent_id. */
export function seedOrderSources(shop: ShopRecord, now: number): OrderSourceRecord[] {
  const at = iso(now - 300 * DAY);
  const top: [number, string][] = [
    [-1, "Facebook"],
    [-2, "Website"],
    [-3, "Shopee"],
    [-4, "Zalo"],
    [-5, "Instagram"],
    [-7, "Tiktok"],
  ];
  const parentOf: Record<string, number> = { facebook: -1, zalo: -4, instagram_official: -5 };
  return [
    ...top.map(([id, name]) => ({ id, name, shop_id: shop.id, inserted_at: at, updated_at: at })),
    ...shop.pages.map((p) => ({
      id: p.id,
      name: p.name,
      parent_id: parentOf[p.platform] ?? -1,
      shop_id: shop.id,
      inserted_at: at,
      updated_at: at,
    })),
  ];
}

const warehouseSites: [string, string, string][] = [
  ["Kho Hà Nội", "12 Trần Duy Hưng", "1011303"],
  ["Kho Hồ Chí Minh", "45 Nguyễn Trãi", "7010102"],
  ["Kho Đà Nẵng", "88 Lê Duẩn", "5010102"],
];

export function seedWarehouses(rng: Random, geo: GeoData): WarehouseRecord[] {
  return warehouseSites.map(([name, street, communeId], i) => {
    const commune = geo.communes.find((c) => c.id === communeId)!;
    const district = geo.districts.find((d) => d.id === commune.district_id)!;
    const province = geo.provinces.find((p) => p.id === commune.province_id)!;
    return {
      id: rng.uuid(),
      name,
      custom_id: `KHO${i + 1}`,
      phone_number: `09${String(11_223_344 + i * 1111).padStart(8, "0")}`,
      address: street,
      full_address: `${street}, ${commune.name}, ${district.name}, ${province.name}`,
      country_code: "84",
      province_id: province.id,
      district_id: district.id,
      commune_id: commune.id,
      shop_id: SHOP_ID,
      allow_create_order: i < 2,
      shelf_config: { col: String(i + 2) },
    };
  });
}

const productKinds: [code: string, name: string, price: number, category: number][] = [
  ["AT", "Áo thun", 189_000, 101],
  ["SM", "Áo sơ mi", 329_000, 102],
  ["QJ", "Quần jean", 459_000, 103],
  ["DA", "Đầm", 549_000, 104],
  ["CV", "Chân váy", 289_000, 105],
  ["AK", "Áo khoác", 599_000, 106],
  ["QS", "Quần short", 219_000, 107],
  ["AL", "Áo len", 389_000, 108],
  ["QT", "Quần tây", 399_000, 109],
  ["TX", "Túi xách", 499_000, 110],
];
const styles = ["cotton", "form rộng", "basic", "Hàn Quốc"];
const colors = ["Trắng", "Đen", "Be", "Xanh navy", "Hồng pastel", "Nâu"];
const sizes = ["S", "M", "L", "XL"];

/** One category per kind of product, at the top of the tree. */
export function seedCategories(): CategoryRecord[] {
  return productKinds.map(([, kind, , id]) => ({ id, text: kind, parent_id: null, nodes: [] }));
}

/** 40 products with 3 variations each (colour x size), stocked in every warehouse. */
export function seedCatalog(
  rng: Random,
  now: number,
  warehouses: WarehouseRecord[],
): { products: ProductRecord[]; variations: VariationRecord[] } {
  const products: ProductRecord[] = [];
  const variations: VariationRecord[] = [];
  productKinds.forEach(([code, kind, basePrice, category], k) => {
    styles.forEach((style, s) => {
      const displayId = `${code}${String(s + 1).padStart(3, "0")}`;
      const product: ProductRecord = {
        id: rng.uuid(),
        name: `${kind} ${style}`,
        display_id: displayId,
        custom_id: displayId,
        category_ids: [category],
        image: `https://content.pancake.vn/sandbox/products/${displayId.toLowerCase()}.jpg`,
        weight: 200 + k * 50,
        is_published: true,
        inserted_at: iso(now - (200 - k * 10 - s) * DAY),
      };
      products.push(product);
      const price = basePrice + s * 20_000;
      for (let v = 0; v < 3; v++) {
        const color = colors[(k + s + v) % colors.length]!;
        const size = sizes[(s + v) % sizes.length]!;
        const stock = warehouses.map((w) => {
          const remain = rng.int(0, 60);
          return {
            warehouse_id: w.id,
            remain_quantity: remain,
            actual_remain_quantity: remain,
            total_quantity: remain + rng.int(10, 80),
            pending_quantity: 0,
            waitting_quantity: 0,
            returning_quantity: 0,
            selling_avg: Math.round(rng.next() * 100) / 100,
          };
        });
        variations.push({
          id: rng.uuid(),
          product_id: product.id,
          display_id: `${displayId}-${asciiName(color).toUpperCase().replace(/[^A-Z0-9]/g, "").slice(0, 2)}-${size}`,
          barcode: `893${String(4_000_000_000 + k * 1000 + s * 10 + v).padStart(10, "0")}`,
          fields: [
            { id: "f-mau", keyValue: "Màu", name: "Màu", value: color },
            { id: "f-size", keyValue: "Size", name: "Size", value: size },
          ],
          images: [product.image],
          retail_price: price,
          last_imported_price: Math.round(price * 0.45),
          average_imported_price: Math.round(price * 0.44),
          weight: product.weight,
          is_hidden: false,
          is_locked: false,
          remain_quantity: stock.reduce((sum, x) => sum + x.remain_quantity, 0),
          variations_warehouses: stock,
          inserted_at: product.inserted_at,
          product: {
            name: product.name,
            display_id: product.display_id,
            custom_id: product.custom_id,
            category_ids: product.category_ids,
            image: product.image,
          },
        });
      }
    });
  });
  return { products, variations };
}

export function seedLevels(rng: Random): CustomerLevelRecord[] {
  const rows: [string, string, number, number, number, number][] = [
    ["Thành viên", "#8c8c8c", 0, 0, 0, 0],
    ["Bạc", "#bfbfbf", 3, 3, 100, 2_000_000],
    ["Vàng", "#faad14", 5, 6, 300, 5_000_000],
    ["Kim cương", "#13c2c2", 10, 12, 800, 15_000_000],
  ];
  return rows.map(([name, color, discount, orders, points, total]) => ({
    id: rng.uuid(),
    name,
    color_customer_level: color,
    discount,
    discount_type: 3,
    upgrade_by_order_count: orders,
    upgrade_by_point: points,
    upgrade_by_total_purchase: total,
    shop_id: SHOP_ID,
  }));
}
