import type { SandboxRequest } from "../server.js";
import { listView, stretch, type View } from "../ordering.js";
import { type PosApi, bodyOf, intParam, invalid, listParam, notFound, paged, pagedView, requireParam } from "./api.js";
import { newCustomer } from "./customer-model.js";
import { posLists } from "./lists.js";
import { asciiName } from "./geo-data.js";
import { shippingAddress, wardAddress } from "./order-model.js";
import { nextNumber, nextUuid, type PosState, tell, writeTime } from "./state.js";
import { iso, ms } from "./time.js";
import type { CustomerAddress, CustomerRecord } from "./types.js";

type Body = Record<string, unknown>;

const CUSTOMER_FIELDS = [
  "name",
  "gender",
  "emails",
  "phone_numbers",
  "date_of_birth",
  "reward_point",
  "is_discount_by_level",
  "tags",
  "is_block",
  "assigned_user_id",
  "level_id",
] as const;
/** camelCase spellings the create payload of the vendor's example uses. */
const ALIASES: Record<string, string> = { phoneNumber: "phone_numbers", dateOfBirth: "date_of_birth" };

function findCustomer(state: PosState, id: string): CustomerRecord {
  const customer = posLists(state).customerById.get(id)[0];
  if (!customer) throw notFound("customer_not_found");
  return customer;
}

/** Applies customer fields; an address item with `id` updates that address, one without adds one. */
function applyCustomer(state: PosState, customer: CustomerRecord, body: Body): void {
  for (const [alias, field] of Object.entries(ALIASES)) {
    if (body[alias] !== undefined && body[field] === undefined) {
      body[field] = field === "phone_numbers" ? [body[alias]] : body[alias];
    }
  }
  for (const field of CUSTOMER_FIELDS) if (body[field] !== undefined) customer[field] = body[field] as never;
  if (body.shop_customer_address === undefined) return;
  if (!Array.isArray(body.shop_customer_address)) throw invalid();
  for (const item of body.shop_customer_address as Body[]) {
    const existing = item.id === undefined ? undefined : customer.shop_customer_address.find((a) => a.id === item.id);
    if (item.id !== undefined && !existing) throw invalid();
    const address: CustomerAddress = existing ?? {
      id: nextUuid(state),
      country_code: 84,
      province_id: "",
      district_id: "",
      commune_id: "",
      address: "",
      full_address: "",
      full_name: customer.name,
      phone_number: customer.phone_numbers[0] ?? "",
    };
    Object.assign(address, item);
    const ward = state.geo.wards.find((w) => w.id === address.commune_id);
    const known = ward || state.geo.communes.some((c) => c.id === address.commune_id);
    if (known) {
      const full = ward
        ? wardAddress(state.geo, ward, address.address, address.full_name, address.phone_number)
        : shippingAddress(state.geo, address.commune_id, address.address, address.full_name, address.phone_number);
      Object.assign(address, { province_id: full.province_id, district_id: full.district_id, full_address: full.full_address });
    }
    if (!existing) customer.shop_customer_address.push(address);
  }
}

/** The customer list's filters: its time ranges apart (UTC ms, both ends included), the others as one test. */
function customerQuery(req: SandboxRequest) {
  const search = req.query.get("search")?.trim();
  const needle = search ? asciiName(search) : undefined;
  const ids = req.query.get("customer_ids")?.split(",").filter(Boolean) ?? [];
  const levels = listParam(req, "selectedLevel");
  const range = (name: "inserted_at" | "updated_at") => {
    const from = intParam(req, `start_time_${name}`);
    const to = intParam(req, `end_time_${name}`);
    return from === undefined && to === undefined ? undefined : { name, from: (from ?? Number.NEGATIVE_INFINITY) * 1000, to: (to ?? Number.POSITIVE_INFINITY) * 1000 };
  };
  const ranges = [range("inserted_at"), range("updated_at")].filter((r) => r !== undefined);
  const tests: ((c: CustomerRecord) => boolean)[] = [];
  if (needle) tests.push((c) => asciiName(c.name).includes(needle) || c.phone_numbers.some((p) => p.includes(search!)) || c.emails.some((e) => e.includes(search!)));
  if (ids.length) tests.push((c) => ids.includes(c.id));
  if (levels.length) tests.push((c) => levels.includes(c.level_id ?? ""));
  for (const r of ranges) tests.push((c) => ms(c[r.name]) >= r.from && ms(c[r.name]) <= r.to);
  return { ranges, keep: tests.length ? (c: CustomerRecord) => tests.every((test) => test(c)) : undefined };
}

/** Newest first, ties by id: the customer list's order. */
const newest = (a: CustomerRecord, b: CustomerRecord) => (a.inserted_at < b.inserted_at ? 1 : a.inserted_at > b.inserted_at ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const insertedText = (c: CustomerRecord) => c.inserted_at;

/**
 * The customers newest first, from the ordering by inserted_at (ms) where it is that order, narrowed
 * to the first range asked where one is; every customer sorted otherwise.
 */
function customerView(state: PosState, ranges: { name: "inserted_at" | "updated_at"; from: number; to: number }[]): View<CustomerRecord> {
  const lists = posLists(state);
  const range = ranges[0];
  if (range) {
    const ordering = lists.customersBy(range.name);
    const [from, to] = ordering.between(range.from, range.to);
    if (range.name === "inserted_at" && ordering.agrees(insertedText)) return stretch(ordering, from, to, true);
    return listView(ordering.items.slice(from, to).sort(newest));
  }
  const ordering = lists.customersBy("inserted_at");
  if (ordering.length === state.customers.length && ordering.agrees(insertedText)) return stretch(ordering, 0, ordering.length, true);
  return listView([...state.customers].sort(newest));
}

export function registerCustomerRoutes(api: PosApi): void {
  const { state } = api;

  api.get("/shops/:shop_id/customers/point_logs", (req) => {
    const id = requireParam(req, "shop_customer_id");
    const logs = [...posLists(state).pointLogsOf.get(id)]
      .reverse()
      .map(({ shop_customer_id: _id, ...log }) => log);
    return paged(req, logs, { pageKey: "page_number" });
  });

  api.get("/shops/:shop_id/customers", (req) => {
    const { ranges, keep } = customerQuery(req);
    return pagedView(req, () => ({ view: customerView(state, ranges), keep }), { pageKey: "page_number" });
  });
  api.get("/shops/:shop_id/customers/:customer_id", (req) => ({
    data: findCustomer(state, req.params.customer_id!),
    success: true,
  }));
  api.post("/shops/:shop_id/customers", (req) => {
    // name and a phone are required (top level in the newer API, inside `customer` in the older).
    const outer = bodyOf(req);
    const body = bodyOf(req, "customer");
    const phones = body.phone_numbers;
    const phone = outer.phoneNumber ?? (Array.isArray(phones) ? phones[0] : undefined);
    if (typeof (outer.name ?? body.name) !== "string" || typeof phone !== "string" || !phone) throw invalid();
    const customer = newCustomer(state, iso(writeTime(state)));
    applyCustomer(state, customer, body);
    state.customers.push(customer);
    tell(state, { type: "customers", customer });
    return { data: customer, success: true };
  });
  api.put("/shops/:shop_id/customers/:customer_id", (req) => {
    const customer = findCustomer(state, req.params.customer_id!);
    applyCustomer(state, customer, bodyOf(req, "customer"));
    customer.updated_at = iso(writeTime(state));
    tell(state, { type: "customers", customer });
    return { data: customer, success: true };
  });

  api.get("/shops/:shop_id/customers/:customer_id/load_customer_notes", (req) => {
    const customer = findCustomer(state, req.params.customer_id!);
    return { customer_notes: [{ notes: state.customerNotes[customer.id] ?? [] }], success: true };
  });
  api.post("/shops/:shop_id/customers/:customer_id/create_note", (req) => {
    const customer = findCustomer(state, req.params.customer_id!);
    const body = bodyOf(req);
    if (typeof body.message !== "string" && !Array.isArray(body.images)) throw invalid();
    const author = state.users[0]!;
    const note = {
      id: nextUuid(state),
      message: typeof body.message === "string" ? body.message : "",
      images: Array.isArray(body.images) ? (body.images as Body[]).map((i) => ({ url: String(i.url ?? "") })) : [],
      order_id: body.order_id === undefined ? null : String(body.order_id),
      created_at: Math.floor(writeTime(state) / 1000),
      updated_at: null,
      created_by: { uid: author.id, fb_id: author.fb_id, fb_name: author.name },
      edit_history: [],
    };
    state.customerNotes[customer.id] = [...(state.customerNotes[customer.id] ?? []), note];
    return { data: note, success: true };
  });

  api.get("/shops/:shop_id/customer_levels", (req) => {
    const search = req.query.get("search")?.trim();
    const data = search ? state.levels.filter((l) => asciiName(l.name).includes(asciiName(search))) : state.levels;
    return { data, success: true };
  });

  api.post("/shops/:shop_id/promotion_advance/create_multi", (req) => {
    const body = bodyOf(req, "promotion_advance");
    const promotion = body.promotion as Body | undefined;
    const info = promotion?.promo_code_info as Body | undefined;
    const customers = body.shop_customer_ids;
    if (
      typeof promotion?.type !== "string" ||
      typeof promotion.is_activated !== "boolean" ||
      typeof info?.discount !== "number" ||
      typeof info.is_percent !== "boolean" ||
      !Array.isArray(customers) ||
      !customers.every((id) => state.customers.some((c) => c.id === id))
    ) {
      throw invalid();
    }
    const at = iso(writeTime(state));
    const record = {
      ...promotion,
      id: nextUuid(state),
      display_id: nextNumber(state, "promotion"),
      name: typeof promotion.name === "string" ? promotion.name : `Khuyến mãi khách hàng ${at.slice(0, 10)}`,
      shop_customer_ids: customers,
      shop_id: state.shop.id,
      inserted_at: at,
      updated_at: at,
    };
    state.customerPromotions.push(record);
    state.promotions.push(record);
    return { data: record, success: true };
  });
}
