import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { id } from "../../format/compact.js";
import { defineTool, OVERWRITE } from "../define.js";
import { jsonish, shopIdInput } from "../inputs.js";
import { customerId } from "../pos/customer-ref.js";
import { addressIds, addressMatchSchema } from "../orders/address-names.js";
import { phoneInput } from "../pos/phone.js";
import { resolveShopId } from "../pos/resolve-shop.js";
import { customerLevels, refId } from "../pos/shop-refs.js";
import type { PosClient } from "../../clients/pos.js";
import { geoIndex } from "../shop/geo-index.js";
import { addressFields, fieldChecks, holds, notApplied, phones, readBack, type SentField, verifiedShape } from "../verify.js";
import { customerRow, customerRowSchema } from "./customer-row.js";

const address = z.object({
  id: z.string().max(64).optional(),
  address: z.string().max(300).optional(),
  commune_id: z.string().max(20).optional(),
  district_id: z.string().max(20).optional(),
  province_id: z.string().max(20).optional(),
  full_name: z.string().max(120).optional(),
  phone_number: z.string().max(20).optional(),
});

/**
 * The address as one line (street, commune, district, province): the OpenAPI's create takes an
 * address only as full_address text. Names come from the cached address reference data.
 */
async function fullAddress(pos: PosClient, a: z.output<typeof address>): Promise<string | undefined> {
  const names: (string | null | undefined)[] = [a.address];
  if (a.province_id && a.district_id) {
    const geo = geoIndex(pos);
    const [provinces, districts, communes] = await Promise.all([
      geo.provinces(),
      geo.districts(a.province_id),
      a.commune_id ? geo.communes(a.province_id, a.district_id) : [],
    ]);
    const named = (rows: { id?: unknown; name?: string | null }[], wanted?: string) => rows.find((r) => String(r.id) === wanted)?.name;
    names.push(named(communes, a.commune_id), named(districts, a.district_id), named(provinces, a.province_id));
  }
  return names.filter(Boolean).join(", ") || undefined;
}

/**
 * Each field of a customer update beside what the record read back holds: an address sent is
 * held when the record has one with its words and places (the one with its id, when it had one).
 */
function customerChecks(body: Record<string, unknown>, held: Record<string, unknown>): SentField[] {
  const { shop_customer_address: sentAddresses, level_id, ...rest } = body;
  const checks = fieldChecks(rest, held, { date_of_birth: (d) => (typeof d === "string" ? d.slice(0, 10) : d), phone_numbers: phones });
  if (level_id !== undefined) checks.push({ field: "level", sent: level_id, held: held.level_id });
  const addresses = Array.isArray(held.shop_customer_address) ? (held.shop_customer_address as Record<string, unknown>[]) : [];
  ((sentAddresses ?? []) as Record<string, unknown>[]).forEach((a, i) => {
    const sent = addressFields(a);
    const match = a.id === undefined ? addresses.find((h) => holds(sent, addressFields(h))) : addresses.find((h) => String(h.id) === String(a.id));
    checks.push({ field: `addresses[${i}]`, sent, held: addressFields(match ?? addresses.at(-1)) });
  });
  return checks;
}

export const saveCustomer = defineTool({
  name: "save_customer",
  title: "Create or update a customer",
  description:
    "Create a POS customer, or update one given customer_id (only given fields change).",
  toolset: "customers",
  annotations: OVERWRITE,
  input: z.object({
    shop_id: shopIdInput,
    customer_id: z.string().max(120).optional().describe("To update: id, phone or name"),
    name: z.string().max(120).optional().describe("Name"),
    phone_numbers: z.array(z.string().max(20)).max(10).optional().describe("Replaces the list"),
    emails: z.array(z.string().max(120)).max(10).optional().describe("Replaces the list"),
    date_of_birth: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD").optional().describe("YYYY-MM-DD"),
    tags: z.array(z.string().max(60)).max(30).optional().describe("Replaces the list"),
    level: z.string().max(80).optional().describe("Level name or id"),
    addresses: jsonish(z.array(address).max(10))
      .optional()
      .describe("Addresses to add; with id: to update"),
    extra: jsonish(z.record(z.string(), z.unknown()))
      .optional()
      .describe("Other fields (gender, is_block, …)"),
  }),
  output: z.object({
    id: z.string().optional(),
    created: z.boolean(),
    customer: customerRowSchema.optional(),
    address_matches: z.array(addressMatchSchema.extend({ index: z.number() })).optional(),
    ...verifiedShape,
  }),
  async handler(input, ctx) {
    const { shop_id, customer_id, level, addresses, extra, ...fields } = input;
    const body: Record<string, unknown> = { ...extra, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
    if (fields.phone_numbers) body.phone_numbers = fields.phone_numbers.map((p, i) => phoneInput(`phone_numbers[${i}]`, p));
    // Addresses typed as words get their ids from the address data before anything is sent.
    const placed = addresses && (await Promise.all(addresses.map((a, i) => addressIds(ctx.pos, `addresses[${i}]`, a))));
    if (Object.keys(body).length === 0 && level === undefined && !placed) {
      throw new InputError("name", "nothing to save", "Pass at least one field, e.g. name or phone_numbers.");
    }
    if (!customer_id) {
      if (!body.name) throw new InputError("name", "is required to create a customer", "Pass name and phone_numbers.");
      if (!input.phone_numbers?.length) throw new InputError("phone_numbers", "is required to create a customer", "Pass at least one phone number.");
    }
    const shopId = await resolveShopId(ctx, shop_id);
    if (placed) {
      // The customer endpoints document no render_type or new_* fields (the OpenAPI's customer
      // address has the old ones only): a two-tier address goes as its new ids and its text.
      body.shop_customer_address = await Promise.all(
        placed.map(async ({ address: a, form }, i) => ({
          country_code: 84,
          ...a,
          phone_number: a.phone_number === undefined ? undefined : phoneInput(`addresses[${i}].phone_number`, a.phone_number),
          full_address: form?.render_type === "new" ? form.new_full_address : await fullAddress(ctx.pos, a),
        })),
      );
    }
    const target = customer_id === undefined ? undefined : await customerId(ctx.pos, shopId, "customer_id", customer_id);
    const levels = await customerLevels(ctx.pos, shopId);
    if (level !== undefined) body.level_id = refId("level", levels, level);
    const names = new Map(levels.map((l) => [l.id, l.name]));
    const matches = placed?.flatMap((p, index) => (p.match ? [{ index, ...p.match }] : []));
    if (target) {
      // An update is reported as read back: the answer to a PUT says little (often {success: true}).
      await ctx.pos.updateCustomer(shopId, target, body);
      const back = await readBack("customer change", () => ctx.pos.getCustomer(shopId, target));
      return {
        id: target,
        created: false,
        customer: back.record && customerRow(back.record, ctx.config.timezone, names),
        address_matches: matches,
        not_applied: back.record && notApplied(customerChecks(body, back.record as Record<string, unknown>)),
        unverified: back.unverified,
      };
    }
    const saved = await ctx.pos.createCustomer(shopId, body);
    return { id: id(saved.id), created: true, customer: customerRow(saved, ctx.config.timezone, names), address_matches: matches };
  },
});
