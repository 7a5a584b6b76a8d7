import { formatMoney, SHOP_LOCALE } from "../../format/money.js";

export { formatMoney };

const integer = new Intl.NumberFormat(SHOP_LOCALE, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(SHOP_LOCALE, { maximumFractionDigits: 2 });

export const fmtInt = (n: number): string => integer.format(n);
export const fmtNum = (n: number): string => decimal.format(n);

/** Axis labels: 1,2 tr (triệu), 3 tỷ, 45 N (nghìn). */
export function fmtShort(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e9) return `${decimal.format(n / 1e9)} tỷ`;
  if (a >= 1e6) return `${decimal.format(Math.round(n / 1e5) / 10)} tr`;
  if (a >= 1e4) return `${integer.format(n / 1e3)} N`;
  return integer.format(n);
}

/** Seconds as "1 giờ 40 phút", "5 phút", "40 giây". */
export function fmtDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} giây`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} phút`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} giờ ${m % 60} phút` : `${h} giờ`;
}

/** "2026-11-16" -> "16/11"; an hour row "2026-11-16 09" or "2026-11-16T09:00" -> "16/11 9h"; hour_of_day 9 -> "9h". */
export function fmtPeriod(value: unknown): string {
  if (typeof value === "number") return `${value}h`;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}))?/.exec(String(value));
  if (!m) return String(value);
  return `${Number(m[3])}/${Number(m[2])}${m[4] === undefined ? "" : ` ${Number(m[4])}h`}`;
}

/** "2026-11-16T00:00:00+07:00" -> "16/11/2026". */
export function fmtDay(iso: unknown): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(iso ?? ""));
  return m ? `${Number(m[3])}/${Number(m[2])}/${m[1]}` : "";
}

export const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
