import { InputError } from "../../clients/errors.js";

// Phone numbers as people type them: "+84 912 345 678", "84912345678", "0912.345.678",
// "(091) 234-5678". The POS keeps the national form (0 + 9 or 10 digits) and its search matches
// text as typed, so any other form of a stored number silently finds nothing: every form is
// turned into the national one before a search or a write.

const SEPARATORS = /[\s.\-()]/g;
const PHONE_LIKE = /^\+?[\d\s.\-()]+$/;

/** The national form of a Vietnamese number, `+digits` for another country's, else undefined. */
export function normalizePhone(text: string): string | undefined {
  const trimmed = text.trim();
  if (!PHONE_LIKE.test(trimmed)) return undefined;
  const digits = trimmed.replace(SEPARATORS, "").replace(/^\+/, "");
  const international = trimmed.startsWith("+") || digits.startsWith("00");
  const national = /^(?:00)?840?(\d{9,10})$/.exec(digits);
  if (national) return `0${national[1]}`;
  if (/^0\d{9,10}$/.test(digits)) return digits;
  // A mobile number without its leading 0 ("912 345 678").
  if (!international && /^[35789]\d{8}$/.test(digits)) return `0${digits}`;
  if (international && /^\d{8,15}$/.test(digits.replace(/^00/, ""))) return `+${digits.replace(/^00/, "")}`;
  return undefined;
}

/** A phone to be written: normalized, or an error naming the field. */
export function phoneInput(field: string, text: string): string {
  const phone = normalizePhone(text);
  if (phone === undefined) {
    throw new InputError(field, `${JSON.stringify(text)} is not a phone number`, 'Pass digits, e.g. "0912345678" or "+84 912 345 678".');
  }
  return phone;
}

/**
 * Search text: a phone in any form becomes the stored form, digits split by spaces or dots ("345
 * 678") are joined; other text is kept as typed.
 */
export function searchText(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  const phone = normalizePhone(trimmed);
  if (phone) return phone;
  return PHONE_LIKE.test(trimmed) ? trimmed.replace(SEPARATORS, "").replace(/^\+/, "") : trimmed;
}
