import { COLORS, cards, legend, rankBars, type Series } from "../app/chart.js";
import { el } from "../app/dom.js";
import { fmtDay, fmtInt, fmtNum, fmtShort, formatMoney, num } from "../app/format.js";
import { type Data, startView } from "../app/view.js";

type Row = Record<string, unknown>;

const SPEND: Series = { field: "spend", label: "Chi tiêu", color: COLORS[1]! };
const RETURN: Series = { field: "purchase_value", label: "Doanh thu từ quảng cáo", color: COLORS[2]! };

startView("ad-stats", (data: Data) => {
  const currency = String(data.currency ?? "VND");
  const money = (n: number) => formatMoney(n, currency);
  const rows = (data.rows as Row[] | undefined) ?? [];
  const totals = (data.totals as Row | undefined) ?? {};
  const range = data.range as { since?: string; until?: string } | undefined;
  const spent = rows.filter((r) => num(r.spend) > 0);
  const idle = rows.length - spent.length;
  const roas = (r: Row) => (num(r.spend) > 0 ? num(r.purchase_value) / num(r.spend) : 0);
  const out: Node[] = [
    el("h1", {}, "Quảng cáo: chi tiêu và doanh thu"),
    el("p", { class: "sub" }, `${fmtDay(range?.since)} – ${fmtDay(range?.until)} · ${rows.length} chiến dịch`),
    cards([
      { key: "spend", label: "Chi tiêu", text: money(num(totals.spend)) },
      { key: "purchase_value", label: "Doanh thu từ QC", text: money(num(totals.purchase_value)) },
      { key: "roas", label: "ROAS", text: fmtNum(roas(totals)), tone: roas(totals) >= 1 ? "good" : "bad" },
      { key: "purchases", label: "Lượt mua", text: fmtInt(num(totals.purchases)) },
    ]),
    el("h2", {}, "Theo chiến dịch"),
    legend([SPEND, RETURN]),
    rankBars(
      spent.map((r) => ({
        label: String(r.name ?? r.campaign_id ?? ""),
        values: [
          { series: SPEND, value: num(r.spend), text: fmtShort(num(r.spend)) },
          { series: RETURN, value: num(r.purchase_value), text: fmtShort(num(r.purchase_value)) },
        ],
        extra: { text: `ROAS ${fmtNum(roas(r))}`, tone: roas(r) >= 1 ? "good" : "bad" },
      })),
    ),
  ];
  if (idle) out.push(el("p", { class: "note" }, `${idle} chiến dịch không chi tiêu trong khoảng này.`));
  const failed = data.failed_pages as { page_id: string; page_name?: string }[] | undefined;
  if (failed?.length) out.push(el("p", { class: "note bad" }, `Không đọc được quảng cáo của trang: ${failed.map((f) => f.page_name ?? f.page_id).join(", ")}`));
  if (data.truncated) out.push(el("p", { class: "note" }, `Hiển thị ${rows.length}/${fmtInt(num(data.total_rows))} chiến dịch.`));
  return out;
});
