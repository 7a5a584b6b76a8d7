import { setOwn } from "../text/own-property.js";

/**
 * Drops null, undefined, empty strings, empty arrays and empty objects, deeply. A tool result's
 * own top-level lists stay even when empty, so "no rows" reads as `items: []`.
 */
export function compact<T extends object>(result: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) {
    const kept = Array.isArray(value) ? value.map(prune).filter((v) => v !== undefined) : prune(value);
    if (kept !== undefined) setOwn(out, key, kept);
  }
  return out as T;
}

function prune(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(prune).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const kept = prune(v);
      if (kept !== undefined) setOwn(out, key, kept);
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  if (value === null || value === undefined || value === "") return undefined;
  return value;
}

/** An upstream number that may come as text ("12000", "1.5") to a number, else undefined. */
export function num(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** An upstream id (string or number) as a string. */
export function id(value: unknown): string | undefined {
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}
