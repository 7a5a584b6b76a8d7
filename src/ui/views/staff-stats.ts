import { COLORS, cards, legend, rankBars, type Series } from "../app/chart.js";
import { el } from "../app/dom.js";
import { fmtDay, fmtDuration, fmtInt, num } from "../app/format.js";
import { type Data, startView } from "../app/view.js";

const MESSAGES: Series = { field: "messages", label: "Tin nhắn đã gửi", color: COLORS[0]! };
const CONVERSATIONS: Series = { field: "conversations", label: "Hội thoại đã xử lý", color: COLORS[1]! };
/** Slower than this average first reply is marked. */
const SLOW_SECONDS = 2 * 3600;

startView("staff-stats", (data: Data) => {
  const staff = (data.staff as Record<string, unknown>[] | undefined) ?? [];
  const totals = (data.totals as Record<string, unknown> | undefined) ?? {};
  const range = data.range as { since?: string; until?: string } | undefined;
  const out: Node[] = [
    el("h1", {}, "Hiệu suất nhân viên"),
    el("p", { class: "sub" }, `${fmtDay(range?.since)} – ${fmtDay(range?.until)} · ${staff.length} nhân viên`),
    cards([
      { key: "messages", label: "Tin nhắn đã gửi", text: fmtInt(num(totals.inbox_count) + num(totals.comment_count)) },
      { key: "conversations", label: "Hội thoại", text: fmtInt(num(totals.unique_inbox_count) + num(totals.unique_comment_count)) },
      { key: "order_count", label: "Đơn chốt", text: fmtInt(num(totals.order_count)) },
      { key: "phone_number_count", label: "Số điện thoại", text: fmtInt(num(totals.phone_number_count)) },
    ]),
    el("h2", {}, "Xếp hạng"),
    legend([MESSAGES, CONVERSATIONS]),
    rankBars(
      staff.map((s) => {
        const avg = typeof s.avg_response_seconds === "number" ? s.avg_response_seconds : undefined;
        return {
          label: String(s.name ?? s.user_id ?? ""),
          values: [
            { series: MESSAGES, value: num(s.messages), text: `${fmtInt(num(s.messages))} tin` },
            { series: CONVERSATIONS, value: num(s.conversations), text: `${fmtInt(num(s.conversations))} hội thoại` },
          ],
          extra: avg === undefined ? undefined : { text: `phản hồi TB ${fmtDuration(avg)}`, tone: avg > SLOW_SECONDS ? "bad" : "" },
        };
      }),
    ),
  ];
  if (data.truncated) out.push(el("p", { class: "note" }, `Hiển thị ${staff.length}/${fmtInt(num(data.total_staff))} nhân viên.`));
  return out;
});
