/**
 * Which tools have a chart view (MCP Apps) and where it is. A host that supports MCP Apps reads
 * the ui:// resource and draws the tool's structuredContent in it; any other host ignores
 * `_meta.ui` and gets the same result as before.
 */
export const VIEWS: Readonly<Record<string, string>> = {
  get_page_stats: "page-stats",
  get_staff_stats: "staff-stats",
  get_sales_analytics: "sales",
  get_ad_stats: "ad-stats",
  get_daily_report: "daily-report",
};

export const viewUri = (view: string): string => `ui://pancake/${view}.html`;

/** The tools/list `_meta` of a tool with a view (the spec's `_meta.ui.resourceUri`), else nothing. */
export function viewMeta(toolName: string): { _meta: { ui: { resourceUri: string } } } | undefined {
  const view = VIEWS[toolName];
  return view ? { _meta: { ui: { resourceUri: viewUri(view) } } } : undefined;
}
