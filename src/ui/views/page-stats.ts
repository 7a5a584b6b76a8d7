import { numericFields } from "../../format/fields.js";
import { COLORS, cards, legend, rankBars, type Series, timeChart } from "../app/chart.js";
import { el } from "../app/dom.js";
import { fmtDay, fmtInt, fmtPeriod, num } from "../app/format.js";
import { label } from "../app/labels.js";
import { type Data, startView } from "../app/view.js";

const TITLES: Record<string, string> = { messages: "Tin nhắn", engagement: "Hội thoại", new_customers: "Khách mới", tags: "Nhãn hội thoại" };
/** The figures a seller looks at first, per metric; others follow when these are missing. */
const FIRST: Record<string, string[]> = {
  messages: ["customer_inbox_count", "customer_comment_count", "new_customer_count", "phone_number_count"],
  engagement: ["inbox", "comment", "new_customers_answered"],
};
const TIME_KEYS = ["date", "hour", "hour_of_day"];

type Row = Record<string, unknown>;

function chosenSeries(metric: string, rows: readonly Row[]): Series[] {
  const present = numericFields(rows, TIME_KEYS).filter((f) => rows.some((r) => num(r[f]) !== 0));
  const first = (FIRST[metric] ?? []).filter((f) => present.includes(f));
  return [...first, ...present.filter((f) => !first.includes(f))].slice(0, 4).map((field, i) => ({ field, label: label(field), color: COLORS[i]! }));
}

startView("page-stats", (data: Data, width) => {
  const metric = String(data.metric ?? "messages");
  const rows = (data.rows as Row[] | undefined) ?? [];
  const range = data.range as { since?: string; until?: string } | undefined;
  const out: Node[] = [
    el("h1", {}, `Thống kê trang: ${TITLES[metric] ?? metric}`),
    el("p", { class: "sub" }, `${fmtDay(range?.since)} – ${fmtDay(range?.until)}`),
  ];
  const timeKey = TIME_KEYS.find((k) => rows.some((r) => k in r));
  const series = chosenSeries(metric, rows);
  const totals = data.totals as Row | undefined;
  if (totals) out.push(cards(series.map((s) => ({ key: s.field, label: s.label, text: fmtInt(num(totals[s.field])) }))));
  if (timeKey && series.length) {
    const ordered = [...rows].sort((a, b) => String(a[timeKey]).localeCompare(String(b[timeKey]), undefined, { numeric: true }));
    out.push(
      el("h2", {}, "Theo thời gian"),
      legend(series),
      timeChart({ periods: ordered.map((r) => fmtPeriod(r[timeKey])), values: (f) => ordered.map((r) => num(r[f])), lines: series, width, format: fmtInt }),
    );
  } else if (series.length) {
    // Rows per page or per tag: ranked bars of the first figure.
    const s = series[0]!;
    out.push(
      el("h2", {}, s.label),
      rankBars(rows.map((r) => ({ label: String(r.name ?? r.tag_name ?? r.page_id ?? r.tag_id ?? ""), values: [{ series: s, value: num(r[s.field]), text: fmtInt(num(r[s.field])) }] }))),
    );
  }
  const pages = data.pages as Row[] | undefined;
  if (pages?.length && series.length) {
    const s = series[0]!;
    out.push(
      el("h2", {}, `Theo trang: ${s.label}`),
      rankBars(
        [...pages]
          .sort((a, b) => num(b[s.field]) - num(a[s.field]))
          .map((p) => ({ label: String(p.name ?? p.page_id), values: [{ series: s, value: num(p[s.field]), text: fmtInt(num(p[s.field])) }] })),
      ),
    );
  }
  const failed = data.failed_pages as { page_id: string; page_name?: string }[] | undefined;
  if (failed?.length) out.push(el("p", { class: "note bad" }, `Không đọc được: ${failed.map((f) => f.page_name ?? f.page_id).join(", ")}`));
  if (data.truncated) out.push(el("p", { class: "note" }, `Hiển thị ${rows.length}/${fmtInt(num(data.total_rows))} dòng.`));
  return out;
});
