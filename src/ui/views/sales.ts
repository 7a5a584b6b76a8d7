import { COLORS, cards, legend, rankBars, type Series, timeChart } from "../app/chart.js";
import { el } from "../app/dom.js";
import { fmtDay, fmtInt, fmtPeriod, fmtShort, formatMoney, num } from "../app/format.js";
import { type Data, startView } from "../app/view.js";

type Row = Record<string, unknown>;

const SPLIT_NAMES: Record<string, string> = {
  "Time.day": "ngày",
  "Order.source": "nguồn đơn",
  "Variation.id": "mẫu mã",
  "Variation.product_id": "sản phẩm",
  "User.id": "nhân viên",
};

startView("sales", (data: Data, width) => {
  const currency = String(data.currency ?? "VND");
  const money = (n: number) => formatMoney(n, currency);
  const rows = (data.rows as Row[] | undefined) ?? [];
  const totals = (data.totals as { success?: Row; returned?: Row } | undefined) ?? {};
  const sold = totals.success ?? {};
  const back = totals.returned ?? {};
  // The split is whatever "Kind.field" keys the rows carry.
  const splits = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => k in SPLIT_NAMES)))];
  const revenue: Series = { field: "price", label: "Doanh thu", color: COLORS[0]! };
  const orders: Series = { field: "order_count", label: "Đơn hàng", color: COLORS[1]! };
  const out: Node[] = [
    el("h1", {}, `Doanh số theo ${splits.map((s) => SPLIT_NAMES[s]).join(" × ") || "ngày"}`),
    el("p", { class: "sub" }, `${fmtDay(data.since)} – ${fmtDay(data.until)} · ${currency}`),
    cards([
      { key: "price", label: "Doanh thu", text: money(num(sold.price)) },
      ...("order_count" in sold ? [{ key: "order_count", label: "Đơn thành công", text: fmtInt(num(sold.order_count)) }] : []),
      { key: "product_count", label: "Sản phẩm bán", text: fmtInt(num(sold.product_count)) },
      { key: "returned", label: "Hoàn / trả", text: `${money(num(back.price))}`, tone: num(back.price) > 0 ? "bad" : "" },
    ]),
  ];
  if (splits.length === 1 && splits[0] === "Time.day") {
    const days = [...rows].sort((a, b) => String(a["Time.day"]).localeCompare(String(b["Time.day"])));
    const periods = days.map((r) => fmtPeriod(r["Time.day"]));
    out.push(
      el("h2", {}, "Doanh thu theo ngày"),
      timeChart({ periods, values: (f) => days.map((r) => num(r[f])), bars: [revenue], width, format: money }),
      el("h2", {}, "Số đơn theo ngày"),
      timeChart({ periods, values: (f) => days.map((r) => num(r[f])), lines: [orders], width, height: 140, format: fmtInt }),
    );
  } else {
    const name = (r: Row) => String(r.name ?? splits.map((s) => r[s]).join(" · "));
    out.push(
      el("h2", {}, `Top ${rows.length} theo doanh thu`),
      legend([revenue]),
      rankBars(
        rows.map((r) => ({
          label: name(r),
          values: [{ series: revenue, value: num(r.price), text: fmtShort(num(r.price)) }],
          extra: "order_count" in r ? { text: `${fmtInt(num(r.order_count))} đơn` } : { text: `${fmtInt(num(r.product_count))} sp` },
        })),
      ),
    );
  }
  if (data.truncated) out.push(el("p", { class: "note" }, `Hiển thị ${rows.length}/${fmtInt(num(data.row_count))} dòng.`));
  return out;
});
