import type { Config } from "./config.js";
import { registerConfigSecrets } from "./config.js";
import { Sandbox } from "./sandbox/index.js";

export interface Demo {
  config: Config;
  sandbox: Sandbox;
  close(): Promise<void>;
}

/**
 * Starts the embedded sandbox shop on loopback and points both clients at it. Only the user
 * token is handed over, so page tokens are discovered from the page list as with a real account.
 */
export async function startDemo(config: Config): Promise<Demo> {
  const sandbox = new Sandbox();
  const urls = await sandbox.start();
  const demoConfig: Config = {
    ...config,
    baseUrl: urls.messagingBaseUrl,
    posBaseUrl: urls.posBaseUrl,
    accessToken: sandbox.credentials.userToken,
    pageAccessTokens: {},
    posApiKeys: { "*": sandbox.credentials.posApiKey },
  };
  registerConfigSecrets(demoConfig);
  return { config: demoConfig, sandbox, close: () => sandbox.close() };
}

/** Ready-to-paste client settings for a server at `url`. */
export function clientSnippets(url: string, token?: string): string {
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const headerFlag = token ? ` --header "Authorization: Bearer ${token}"` : "";
  return [
    `MCP endpoint: ${url}`,
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
    "MCP Inspector:",
    `  npx @modelcontextprotocol/inspector --transport http --server-url ${url}${headerFlag}`,
  ].join("\n");
}
