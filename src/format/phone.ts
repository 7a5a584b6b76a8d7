/**
 * Phone numbers as people type them: "+84 912 345 678", "(+84) 912-345-678", "84912345678",
 * "+84 0912 345 678", "0912.345.678" and "(091) 234-5678" are one number. Vietnamese numbers are
 * compared in their national form (0 and nine digits), the form the inbox captures them in.
 */

/** Digits and the separators people put between them, a country code's "+" first (maybe in parentheses). */
const PHONE_LIKE = /^\(?\+?[\d\s.()-]+$/;

/** The national form of a phone number, or undefined when the text is not one. */
export function normalizePhone(text: string): string | undefined {
  const trimmed = text.trim();
  if (!PHONE_LIKE.test(trimmed)) return undefined;
  let digits = trimmed.replace(/\D/g, "");
  if (digits.startsWith("00")) digits = digits.slice(2);
  // The country code before a national number, its 0 kept or dropped: "+84 912…", "+84 0912…".
  if (digits.startsWith("84") && (digits.length === 11 || (digits.length === 12 && digits[2] === "0"))) digits = `0${digits.slice(-9)}`;
  else if (digits.length === 9 && !digits.startsWith("0")) digits = `0${digits}`;
  return digits.length >= 9 && digits.length <= 15 ? digits : undefined;
}

/**
 * Vietnamese numbers as customers write them in a message ("số em 0912 345 678", "+84 912-345-678",
 * "(+84) 0912.345.678"): a leading 0 or country code, then nine digits with single spaces, dots or
 * dashes between them, not inside a longer run of digits. The inbox's own capture
 * (`phone_info`) misses some of these forms, dashes for one.
 */
const WRITTEN_PHONE = /(?<![\d+])(?:(?:\(\+?84\)|\+?84)[\s.-]?0?|0)(?:[\s.-]?\d){9}(?!\d)/g;

/** The national forms of the phone numbers written in a text, without repeats. */
export function phonesInText(text: string | null | undefined): string[] {
  const found = (text ?? "").match(WRITTEN_PHONE) ?? [];
  return [...new Set(found.map((p) => normalizePhone(p)).filter((p): p is string => p !== undefined))];
}
