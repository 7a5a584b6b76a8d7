import { RESOURCE_MIME_TYPE, registerAppResource } from "@modelcontextprotocol/ext-apps/server";
import { VIEWS, viewUri } from "./views.js";

type ViewRead = () => Promise<{ contents: { uri: string; mimeType: string; text: string }[] }>;

/** The server the views are registered on (server.ts's McpServer), named through ext-apps so no SDK type is needed here. */
type AppServer = Parameters<typeof registerAppResource>[0];

/**
 * The ui:// resources of the views whose tools this server registers. They are listed through the
 * SDK; resources/read is the server's own handler (resources/read.ts), which serves them from the
 * map returned here.
 */
export function registerViews(server: AppServer, toolNames: readonly string[]): Map<string, ViewRead> {
  const reads = new Map<string, ViewRead>();
  for (const name of toolNames) {
    const view = VIEWS[name];
    if (!view) continue;
    const uri = viewUri(view);
    const read: ViewRead = async () => {
      const { viewHtml } = await import("./html.js");
      return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: await viewHtml(view) }] };
    };
    registerAppResource(server, `${view} view`, uri, { description: `Chart of ${name} results (MCP Apps)` }, read);
    reads.set(uri, read);
  }
  return reads;
}
