import { el, svg } from "./dom.js";
import { fmtShort } from "./format.js";

export interface Series {
  field: string;
  label: string;
  color: string;
}

/** Series colours, from the theme (style.css). */
export const COLORS = ["var(--s1)", "var(--s2)", "var(--s3)", "var(--s4)"];

export const legend = (series: readonly Series[]): HTMLElement =>
  el("div", { class: "legend" }, ...series.map((s) => el("span", {}, el("i", { style: `background:${s.color}` }), s.label)));

export const cards = (items: readonly { key: string; label: string; text: string; tone?: string }[]): HTMLElement =>
  el(
    "div",
    { class: "cards" },
    ...items.map((c) => el("div", { class: "card", "data-total": c.key }, el("div", { class: "k" }, c.label), el("div", { class: `v ${c.tone ?? ""}` }, c.text))),
  );

/** A round upper bound for an axis: 1, 2, 2.5 or 5 times a power of ten. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 2.5, 5, 10].map((f) => f * p).find((v) => v >= max)!;
}

/**
 * A time chart drawn at the given pixel width: columns for `bars`, lines with points for `lines`,
 * one y scale. Every mark carries its series, period and value (data-*) and a hover title.
 */
export function timeChart(opts: {
  periods: string[];
  values: (field: string) => number[];
  bars?: readonly Series[];
  lines?: readonly Series[];
  width: number;
  height?: number;
  format?: (n: number) => string;
}): SVGElement {
  const { periods, width } = opts;
  const height = opts.height ?? 200;
  const format = opts.format ?? String;
  const bars = opts.bars ?? [];
  const lines = opts.lines ?? [];
  const left = 44;
  const bottom = 22;
  const plotW = Math.max(width - left - 8, 40);
  const plotH = height - bottom - 8;
  const all = [...bars, ...lines].flatMap((s) => opts.values(s.field));
  const top = niceMax(Math.max(0, ...all));
  const y = (v: number) => 8 + plotH - (Math.max(v, 0) / top) * plotH;
  const step = plotW / Math.max(periods.length, 1);
  const x = (i: number) => left + step * (i + 0.5);
  const root = svg("svg", { class: "chart", width, height, viewBox: `0 0 ${width} ${height}`, role: "img" });
  for (const f of [0, 0.5, 1]) {
    const gy = y(top * f);
    root.append(svg("line", { class: "grid", x1: left, x2: left + plotW, y1: gy, y2: gy }), svg("text", { x: left - 4, y: gy + 4, "text-anchor": "end" }, fmtShort(top * f)));
  }
  // At most about one label per 48 px, always the first and the last.
  const every = Math.max(1, Math.ceil(periods.length / Math.max(1, Math.floor(plotW / 48))));
  periods.forEach((p, i) => {
    if (i % every === 0 || i === periods.length - 1) root.append(svg("text", { x: x(i), y: height - 6, "text-anchor": "middle" }, p));
  });
  const barW = Math.max(2, (step * 0.7) / Math.max(bars.length, 1));
  bars.forEach((s, k) => {
    opts.values(s.field).forEach((v, i) => {
      const bx = x(i) - (barW * bars.length) / 2 + k * barW;
      const mark = svg("rect", { class: "bar", x: bx, y: y(v), width: barW - 1, height: Math.max(0, 8 + plotH - y(v)), fill: s.color, "data-series": s.field, "data-period": periods[i]!, "data-value": v });
      mark.append(svg("title", {}, `${periods[i]} · ${s.label}: ${format(v)}`));
      root.append(mark);
    });
  });
  for (const s of lines) {
    const vs = opts.values(s.field);
    root.append(svg("polyline", { fill: "none", stroke: s.color, "stroke-width": 2, points: vs.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
    vs.forEach((v, i) => {
      const mark = svg("circle", { class: "point", cx: x(i), cy: y(v), r: 3.5, fill: s.color, "data-series": s.field, "data-period": periods[i]!, "data-value": v });
      mark.append(svg("title", {}, `${periods[i]} · ${s.label}: ${format(v)}`));
      root.append(mark);
    });
  }
  return root;
}

export interface RankedItem {
  label: string;
  values: { series: Series; value: number; text: string }[];
  /** Extra words after the figures (a response time, a ROAS). */
  extra?: { text: string; tone?: string };
}

/** Ranked horizontal bars, one row per item and one bar per series, scaled to the largest value. */
export function rankBars(items: readonly RankedItem[]): HTMLElement {
  const max = Math.max(1, ...items.flatMap((it) => it.values.map((v) => v.value)));
  return el(
    "div",
    { class: "rows" },
    ...items.map((it) =>
      el(
        "div",
        { class: "row", "data-label": it.label },
        el("div", { class: "name", title: it.label }, it.label),
        el(
          "div",
          { class: "track" },
          ...it.values.map((v) =>
            el("div", { class: "bar", title: `${v.series.label}: ${v.text}`, style: `width:${(Math.max(v.value, 0) / max) * 100}%;background:${v.series.color}`, "data-series": v.series.field, "data-value": v.value }),
          ),
          el("div", { class: "val" }, it.values.map((v) => v.text).join(" · "), it.extra ? el("span", { class: it.extra.tone ?? "" }, ` · ${it.extra.text}`) : null),
        ),
      ),
    ),
  );
}
