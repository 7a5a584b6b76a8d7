import { copySuffix, earlier, earlierOrNull } from "../copies.js";
import { PARTNER_TIMES as PARTNER_TIMES_LISTED } from "./order-times.js";
import type { OrderItem, OrderPartner, OrderRecord } from "./types.js";

/*
 * The lines, carrier record and status history of an order's copies (SandboxOptions.scale), built
 * when read rather than held: at 1000 copies they were half the sandbox's memory (about 1.1 of 3.6
 * GB) and most of its build time. A copy keeps what they derive from (the original's as they were
 * when copied, k and its offset) and reads them through accessors every copy shares, so the record
 * is read, listed, spread and serialized as any other; a value assigned replaces the accessor.
 * A write first makes them the order's own (own()): the history a status change appends to, the
 * lines a return counts back, are then held like any order's.
 */

/** The carrier's times, and when it last wrote. */
const PARTNER_TIMES = [...PARTNER_TIMES_LISTED, "updated_at"] as const;

/** What copy k of an order derives its fields from: the original's, as they were when copied. */
export interface Derivation {
  items: readonly OrderItem[];
  history: OrderRecord["status_history"];
  partner: OrderPartner | null;
  k: number;
  offset: number;
  /** The id of its first line (its lines' ids follow one another). */
  firstItemId: number;
}

const derivations = new WeakMap<OrderRecord, Derivation>();
/** Originals whose fields copies derive from: a write gives them fields of their own first. */
const sources = new WeakSet<OrderRecord>();

const BUILD = {
  items: (d: Derivation): OrderItem[] => d.items.map((item, i) => ({ ...item, id: d.firstItemId + i })),
  status_history: (d: Derivation): OrderRecord["status_history"] => d.history.map((h) => ({ ...h, updated_at: earlier(h.updated_at, d.offset) })),
  partner: (d: Derivation): OrderPartner | null => (d.partner ? copyPartner(d.partner, d.k, d.offset) : null),
};
type Derived = keyof typeof BUILD;

const ACCESSORS = Object.fromEntries(
  (Object.keys(BUILD) as Derived[]).map((name) => [
    name,
    {
      get(this: OrderRecord) {
        const d = derivations.get(this);
        return d ? BUILD[name](d) : undefined;
      },
      set(this: OrderRecord, value: unknown) {
        hold(this);
        this[name] = value as never;
      },
      enumerable: true,
      configurable: true,
    },
  ]),
) as Record<Derived, PropertyDescriptor>;

/**
 * Copy of `original` with `values` in place of its own, its lines, carrier record and status
 * history derived from `derivation`: the original's fields in the original's order.
 */
export function derivedCopy(original: OrderRecord, values: Partial<OrderRecord>, derivation: Derivation): OrderRecord {
  const copy = {} as OrderRecord;
  // Defined rather than assigned: sixty keyed stores would turn the record into a dictionary (V8),
  // every copy twice its size; defined, they share one hidden class.
  for (const key of Object.keys(original)) {
    const value = key in values ? values[key] : original[key];
    Object.defineProperty(copy, key, ACCESSORS[key as Derived] ?? { value, writable: true, enumerable: true, configurable: true });
  }
  derivations.set(copy, derivation);
  sources.add(original);
  return copy;
}

/** The carrier's record of copy k: its own tracking code, its times moved back. */
export function copyPartner(p: OrderPartner, k: number, offset: number): OrderPartner {
  const code = p.extend_code + copySuffix(k);
  const partner: OrderPartner = {
    ...p,
    extend_code: code,
    extend_update: p.extend_update?.map((u) => ({ ...u, tracking_id: code, update_at: earlier(u.update_at, offset) })),
  };
  for (const field of PARTNER_TIMES) partner[field] = earlierOrNull(p[field], offset) as string;
  return partner;
}

/**
 * The order, with fields of its own to change: a copy's derived fields held from now on, an
 * original's nested records copied away from those its copies derive from.
 */
export function own(order: OrderRecord): OrderRecord {
  if (derivations.has(order)) hold(order);
  else if (sources.has(order)) {
    order.items = order.items.map((item) => ({ ...item }));
    order.status_history = [...order.status_history];
    if (order.partner) order.partner = { ...order.partner };
    sources.delete(order);
  }
  return order;
}

/** A copy's derived fields built once and held as plain values: the copy no longer derives anything. */
function hold(order: OrderRecord): void {
  const d = derivations.get(order);
  if (!d) return;
  derivations.delete(order);
  for (const name of Object.keys(BUILD) as Derived[]) {
    Object.defineProperty(order, name, { value: BUILD[name](d), writable: true, enumerable: true, configurable: true });
  }
}

/**
 * The lines, status history and carrier an order's figures read (quantities, prices, statuses,
 * carrier ids): for a copy whose fields are still derived, the original's as copied, which hold
 * the same figures under other ids and times, so counting them builds nothing.
 */
export function figuresOf(order: OrderRecord): Pick<OrderRecord, "items" | "status_history" | "partner"> {
  const d = derivations.get(order);
  return d ? { items: d.items as OrderItem[], status_history: d.history, partner: d.partner } : order;
}

/** When the order entered `status` (its status history's time), null when it never did: read without building a copy's history. */
export function statusTime(order: OrderRecord, status: number): string | null {
  const d = derivations.get(order);
  const entered = (d ? d.history : order.status_history).find((h) => h.status === status)?.updated_at ?? null;
  return d ? earlierOrNull(entered, d.offset) : entered;
}

/** A carrier time of the order (one of PARTNER_TIMES), null when it has none: read without building a copy's carrier record. */
export function partnerTime(order: OrderRecord, field: (typeof PARTNER_TIMES_LISTED)[number]): string | null {
  const d = derivations.get(order);
  const time = ((d ? d.partner : order.partner)?.[field] as string | null | undefined) ?? null;
  return d ? earlierOrNull(time, d.offset) : time;
}
