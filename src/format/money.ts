/**
 * Amounts as a Vietnamese seller reads them: "1.250.000 ₫". Shared by the confirmation dialogs and
 * the chart views (which bundle it), so both show money the same way.
 */
export const SHOP_LOCALE = "vi-VN";

const formatters = new Map<string, Intl.NumberFormat>();

export function formatMoney(amount: number, currency = "VND"): string {
  let format = formatters.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat(SHOP_LOCALE, { style: "currency", currency, maximumFractionDigits: currency === "VND" ? 0 : 2 });
    } catch {
      // An unknown currency code from the upstream: the number, then the code as given.
      const plain = new Intl.NumberFormat(SHOP_LOCALE, { maximumFractionDigits: 2 });
      return `${plain.format(amount)} ${currency}`;
    }
    formatters.set(currency, format);
  }
  return format.format(amount);
}
