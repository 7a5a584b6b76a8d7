import { RESOURCE_MIME_TYPE, registerAppResource } from "@modelcontextprotocol/ext-apps/server";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { VIEWS, viewUri } from "./views.js";

/** The ui:// resources of the views whose tools this server registers. */
export function registerViews(server: McpServer, toolNames: readonly string[]): void {
  for (const name of toolNames) {
    const view = VIEWS[name];
    if (!view) continue;
    const uri = viewUri(view);
    registerAppResource(server, `${view} view`, uri, { description: `Chart of ${name} results (MCP Apps)` }, async () => {
      const { viewHtml } = await import("./html.js");
      return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: await viewHtml(view) }] };
    });
  }
}
