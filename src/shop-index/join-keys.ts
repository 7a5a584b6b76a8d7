import { id } from "../format/compact.js";
import type { JOIN_HOW } from "./store.js";

/** A join key, `<how>:<value>`, or undefined without a value (store.ts: TableShape.keys). */
export const joinKey = (how: keyof typeof JOIN_HOW, value: unknown): string | undefined => {
  const text = id(value);
  return text === undefined || text === "" ? undefined : `${how}:${text}`;
};
