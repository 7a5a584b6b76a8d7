import { z } from "zod";
import { requireStatus, type StatusCode } from "../../clients/pos-codes.js";

/** A status parameter that takes a name or a code of `rows`; the allowed values are listed once, here. */
export const codeInput = (rows: readonly StatusCode[], what: string) =>
  z
    .union([z.string().max(40), z.number().int()])
    .optional()
    .describe(`${what}: ${rows.map((r) => r.name).join(", ")}`);

export const optionalCode = (rows: readonly StatusCode[], field: string, value: string | number | undefined) =>
  value === undefined ? undefined : requireStatus(field, rows, value);
