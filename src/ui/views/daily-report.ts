import { COLORS, cards, legend, rankBars, type Series } from "../app/chart.js";
import { el } from "../app/dom.js";
import { fmtDay, fmtDuration, fmtInt, formatMoney, num } from "../app/format.js";
import { type Data, startView } from "../app/view.js";

type Row = Record<string, unknown>;

const CUSTOMER_MESSAGES: Series = { field: "customer_inbox_count", label: "Tin nhắn của khách", color: COLORS[0]! };
const COMMENTS: Series = { field: "customer_comment_count", label: "Bình luận của khách", color: COLORS[1]! };
const STAFF_MESSAGES: Series = { field: "messages", label: "Tin nhắn đã gửi", color: COLORS[2]! };

const unavailable = (section: unknown): string | undefined =>
  typeof section === "object" && section !== null && "unavailable" in section ? String((section as Row).unavailable) : undefined;

startView("daily-report", (data: Data) => {
  const out: Node[] = [el("h1", {}, `Báo cáo ngày ${fmtDay(data.date)}`), el("p", { class: "sub" }, String(data.time_zone ?? ""))];

  const sales = data.sales as Row | undefined;
  out.push(el("h2", {}, "Bán hàng"));
  if (!sales) out.push(el("p", { class: "note" }, "Chưa kết nối POS: không có số liệu bán hàng."));
  else if (unavailable(sales)) out.push(el("p", { class: "note bad" }, `Không đọc được: ${unavailable(sales)}`));
  else {
    out.push(
      cards([
        { key: "price", label: "Doanh thu", text: formatMoney(num(sales.price)) },
        { key: "order_count", label: "Đơn hàng", text: fmtInt(num(sales.order_count)) },
        { key: "avg_order_value", label: "Giá trị TB / đơn", text: formatMoney(num(sales.avg_order_value)) },
        { key: "returned_orders", label: "Đơn hoàn", text: fmtInt(num(sales.returned_orders)), tone: num(sales.returned_orders) > 0 ? "bad" : "" },
      ]),
    );
  }

  const inbox = (data.inbox as Row[] | undefined) ?? [];
  const read = inbox.filter((p) => !unavailable(p));
  const sum = (field: string) => read.reduce((n, p) => n + num((p.messages as Row | undefined)?.[field]), 0);
  out.push(
    el("h2", {}, "Hộp thư"),
    cards([
      { key: "customer_inbox_count", label: "Tin nhắn của khách", text: fmtInt(sum("customer_inbox_count")) },
      { key: "new_customer_count", label: "Khách mới", text: fmtInt(sum("new_customer_count")) },
      { key: "phone_number_count", label: "Số điện thoại", text: fmtInt(sum("phone_number_count")) },
    ]),
    legend([CUSTOMER_MESSAGES, COMMENTS]),
    rankBars(
      read.map((p) => {
        const m = (p.messages as Row | undefined) ?? {};
        return {
          label: String(p.name ?? p.page_id),
          values: [
            { series: CUSTOMER_MESSAGES, value: num(m.customer_inbox_count), text: `${fmtInt(num(m.customer_inbox_count))} tin` },
            { series: COMMENTS, value: num(m.customer_comment_count), text: `${fmtInt(num(m.customer_comment_count))} bình luận` },
          ],
          extra: { text: `${fmtInt(num(m.new_customer_count))} khách mới` },
        };
      }),
    ),
  );
  for (const p of inbox.filter((p) => unavailable(p))) out.push(el("p", { class: "note bad" }, `${String(p.name ?? p.page_id)}: ${unavailable(p)}`));

  const staff = data.staff as Row | undefined;
  out.push(el("h2", {}, "Nhân viên"));
  if (unavailable(staff)) out.push(el("p", { class: "note bad" }, `Không đọc được: ${unavailable(staff)}`));
  else {
    const top = ((staff?.top_staff as Row[] | undefined) ?? []).filter((s) => num(s.messages) > 0);
    out.push(
      rankBars(
        top.map((s) => ({
          label: String(s.name ?? s.user_id ?? ""),
          values: [{ series: STAFF_MESSAGES, value: num(s.messages), text: `${fmtInt(num(s.messages))} tin` }],
          extra: typeof s.avg_response_seconds === "number" ? { text: `phản hồi TB ${fmtDuration(s.avg_response_seconds)}` } : undefined,
        })),
      ),
    );
    if (!top.length) out.push(el("p", { class: "note" }, "Chưa có tin nhắn nào của nhân viên trong ngày."));
  }
  return out;
});
