import type { Config } from "./config.js";
import { registerConfigSecrets } from "./config.js";
import { Sandbox } from "./sandbox/index.js";

export interface Demo {
  config: Config;
  sandbox: Sandbox;
  close(): Promise<void>;
}

/**
 * Starts the embedded sandbox shop on loopback (as big and as slow as --demo-scale and
 * --demo-latency say) and points both clients at it. Only the user token is handed over, so page
 * tokens are discovered from the page list as with a real account.
 */
export async function startDemo(config: Config): Promise<Demo> {
  const sandbox = new Sandbox({ scale: config.demoScale, latencyMs: config.demoLatencyMs });
  const urls = await sandbox.start();
  const demoConfig: Config = {
    ...config,
    baseUrl: urls.messagingBaseUrl,
    posBaseUrl: urls.posBaseUrl,
    accessToken: sandbox.credentials.userToken,
    pageAccessTokens: {},
    posApiKeys: { "*": sandbox.credentials.posApiKey },
    // As a shop owner would set PANCAKE_CALL_CENTER_IDS: the ids are shown only in the web app.
    callCenterIds: { ...sandbox.messaging.sipPackages },
  };
  registerConfigSecrets(demoConfig);
  return { config: demoConfig, sandbox, close: () => sandbox.close() };
}

/**
 * Ready-to-paste client settings for a server at `url`. The banner goes to stderr, which terminals,
 * supervisors and CI logs keep, so the bearer token itself is never printed: a placeholder stands
 * in for it, with its last 4 characters to tell which token is meant.
 */
export function clientSnippets(url: string, bearer?: string): string {
  const token = bearer ? "<PANCAKE_MCP_TOKEN>" : undefined;
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const headerFlag = token ? ` --header "Authorization: Bearer ${token}"` : "";
  return [
    `MCP endpoint: ${url}`,
    ...(bearer ? [`Replace ${token} below with your PANCAKE_MCP_TOKEN (the one ending in ${bearer.slice(-4)}).`] : []),
    "",
    "Claude Desktop (claude_desktop_config.json; Desktop speaks stdio, so bridge with mcp-remote):",
    json({ mcpServers: { pancake: { command: "npx", args: ["-y", "mcp-remote", url, ...(token ? ["--header", `Authorization: Bearer ${token}`] : [])] } } }),
    "",
    "Claude Code:",
    `  claude mcp add --transport http pancake ${url}${headerFlag}`,
    "",
    "Cursor (~/.cursor/mcp.json):",
    json({ mcpServers: { pancake: { url, ...(headers ? { headers } : {}) } } }),
    "",
    "VS Code (.vscode/mcp.json):",
    json({ servers: { pancake: { type: "http", url, ...(headers ? { headers } : {}) } } }),
    "",
    "MCP Inspector (the web UI needs Node 22.7.5 or newer; the second line works on any Node):",
    `  npx @modelcontextprotocol/inspector --transport http --server-url ${url}${headerFlag}`,
    `  npx @modelcontextprotocol/inspector --cli ${url} --transport http${headerFlag} --method tools/list`,
  ].join("\n");
}
