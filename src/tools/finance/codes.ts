import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { findStatus, type StatusCode } from "../../clients/pos-codes.js";

/** A status parameter that takes a name or a code of `rows`; the allowed values are listed once, here. */
export const codeInput = (rows: readonly StatusCode[], what: string) =>
  z
    .union([z.string().max(40), z.number().int()])
    .optional()
    .describe(`${what}, name or code: ${rows.map((r) => `${r.name}=${r.code}`).join(", ")}`);

/** The code of a name or code from `rows`; an InputError naming `field` and the allowed values otherwise. */
export function toCode(rows: readonly StatusCode[], field: string, value: string | number): number {
  const row = findStatus(rows, value);
  if (!row) {
    throw new InputError(field, `unknown value ${JSON.stringify(value)}`, `Use one of: ${rows.map((r) => `${r.name} (${r.code})`).join(", ")}.`);
  }
  return row.code;
}

export const optionalCode = (rows: readonly StatusCode[], field: string, value: string | number | undefined) =>
  value === undefined ? undefined : toCode(rows, field, value);

/** The name of an upstream code, or the code as text when the table does not know it. */
export function codeName(rows: readonly StatusCode[], code: unknown): string | undefined {
  if (typeof code !== "number" && typeof code !== "string") return undefined;
  return findStatus(rows, code)?.name ?? String(code);
}
