/**
 * The numeric fields of result rows, in first-seen order: what a statistics result totals, what
 * sort_by may name, and what a chart view can draw. One derivation for the tools and the views
 * (this file stays free of imports so a view's bundle can hold it).
 */
export function numericFields(rows: readonly Record<string, unknown>[], skip: readonly string[] = []): string[] {
  const out = new Set<string>();
  for (const row of rows) for (const [k, v] of Object.entries(row)) if (typeof v === "number" && !skip.includes(k)) out.add(k);
  return [...out];
}
