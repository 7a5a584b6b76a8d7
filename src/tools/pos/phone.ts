import { InputError } from "../../clients/errors.js";
import { normalizePhone } from "../../format/phone.js";

// The POS keeps phones in their national form and its search matches text as typed, so any other
// form of a stored number ("+84 912 345 678", "0912.345.678") silently finds nothing: every form
// is turned into the national one before a search or a write.

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
  return normalizePhone(trimmed) ?? (/^[\d\s.()-]+$/.test(trimmed) ? trimmed.replace(/\D/g, "") : trimmed);
}
