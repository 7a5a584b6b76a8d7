import { createClients } from "./clients/index.js";
import { type CliCommand, type Config, ConfigFileError, configSecrets, parseCli } from "./config.js";
import { favourSize } from "./heap-mode.js";
import { Logger } from "./log.js";
import { buildServer } from "./server.js";
import { closeShopIndexes } from "./shop-index/service.js";
import { warmStart } from "./shop-index/warm-start.js";
import type { RedisState } from "./state/redis.js";
import type { StateScope } from "./state/scope.js";
import { openRedis } from "./state/open.js";
import { namespaceOf, redisStates, type StateSource } from "./tenants/index.js";
import { serveApp } from "./http-app.js";
import { unknownTools } from "./tools/index.js";
import { isWildcard } from "./transports/wildcard.js";
import { VERSION } from "./version.js";

async function main(): Promise<void> {
  const command = parseCli(process.argv.slice(2));
  // Asked-for output goes to stdout (`pancake-mcp --version | ...`); stdout is the protocol only when serving.
  if (command.kind === "help") return void process.stdout.write(command.text);
  if (command.kind === "version") return void process.stdout.write(`${VERSION}\n`);
  if (command.kind === "sandbox") return runSandbox(command);
  if (command.kind === "index") {
    const { clearIndex, indexInfo } = await import("./shop-index/admin.js");
    return void process.stdout.write(`${await (command.action === "clear" ? clearIndex : indexInfo)(command.dir)}\n`);
  }

  let config: Config = command.config;
  // Checked here, where the server is assembled: the configuration knows no tool (config.ts).
  const unknown = unknownTools(config.tools);
  if (unknown) throw new ConfigFileError(`invalid configuration:\n  PANCAKE_TOOLS / --tools: ${unknown}`);
  const logger = new Logger(config.logLevel, config.logFormat);
  const cleanups: (() => Promise<void>)[] = [];
  let banner: ((url: string) => Promise<string>) | undefined;
  if (config.demo) {
    const { startDemo, clientSnippets } = await import("./demo.js");
    const demo = await startDemo(config);
    config = demo.config;
    cleanups.push(demo.close);
    logger.info(`demo: sandbox shop at ${demo.sandbox.started.origin}`);
    banner = async (url) => {
      const others = isWildcard(config.host)
        ? `\nOther machines: http://<this machine's name or address>:${new URL(url).port}/mcp, once that name is in PANCAKE_MCP_ALLOWED_HOSTS (add --allow-http to mcp-remote's args for plain http).`
        : "";
      return clientSnippets(url, config.mcpToken) + others;
    };
  }
  // Shared state (PANCAKE_REDIS_URL) loads only when configured; memory otherwise.
  let shared: { redis: RedisState; states: StateSource; scope: StateScope } | undefined;
  if (config.redisUrl) {
    const redis = await openRedis(config.redisUrl, logger, config.responseTimeoutMs + 1000);
    const states = redisStates(redis);
    shared = { redis, states, scope: states.scope(namespaceOf("env", config), configSecrets(config)) };
    cleanups.push(() => redis.close());
  }
  const clients = createClients(config, logger, undefined, shared?.scope);
  cleanups.unshift(clients.close);
  // The shop index's last writes go before Redis (where it may live) closes.
  cleanups.unshift(closeShopIndexes);
  const closeAll = async () => {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
  };

  if (!config.http) {
    favourSize();
    if (config.demo && process.stdin.isTTY) {
      // Someone typed `npm run demo` in a terminal: say what is going on and how to look inside.
      process.stderr.write(
        "pancake-mcp demo: an MCP server on stdio, waiting for a client.\n" +
          "  Inspect it:  npx @modelcontextprotocol/inspector node dist/cli.js --demo\n" +
          "  Or over HTTP with ready-to-paste client config:  node dist/cli.js --demo --http\n",
      );
    }
    const { serveStdio } = await import("./transports/stdio.js");
    await serveStdio((era) => buildServer({ config, clients, logger, era, forwardLogs: true }), logger, closeAll);
    void warmStart(config, clients, logger);
    return;
  }
  const handle = await serveApp({ config, logger, clients, states: shared?.states, redis: shared?.redis });
  // Tenants of a tenants file bring their indexes up to date with their first question.
  if (!config.tenantsFile) void warmStart(config, clients, logger);
  // Printed whatever the log level: scripts and supervisors wait for this line.
  process.stderr.write(`pancake-mcp ${VERSION} ready on ${handle.url}\n`);
  if (banner) process.stderr.write(`\n${await banner(handle.url)}\n\n`);
  const shutdown = async () => {
    logger.info("shutting down");
    // Whatever an upstream or Redis does, the process ends: draining has its own cap, this is the last word.
    setTimeout(() => process.exit(1), 15_000).unref();
    await handle.close();
    await closeAll();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown());
  process.once("SIGINT", () => void shutdown());
  process.on("SIGHUP", () => handle.reload());
}

async function runSandbox({ port, host, scale, latencyMs }: Extract<CliCommand, { kind: "sandbox" }>): Promise<void> {
  const { Sandbox } = await import("./sandbox/index.js");
  const sandbox = new Sandbox({ scale, latencyMs });
  const urls = await sandbox.start(port, host);
  const c = sandbox.credentials;
  process.stderr.write(
    [
      `sandbox listening on ${urls.origin}`,
      `PANCAKE_BASE_URL=${urls.messagingBaseUrl}`,
      `PANCAKE_POS_BASE_URL=${urls.posBaseUrl}`,
      `PANCAKE_ACCESS_TOKEN=${c.userToken}`,
      `PANCAKE_POS_API_KEY=${c.posApiKey}`,
      `PANCAKE_CALL_CENTER_IDS=${Object.entries(sandbox.messaging.sipPackages).map(([page, id]) => `${page}=${id}`).join(",")}`,
      `(shop ${c.shopId}; pages ${Object.keys(c.pageTokens).join(", ")}; ${sandbox.pos.orders.length} orders, ${sandbox.messaging.conversations.length} conversations${latencyMs ? `; every answer after ${latencyMs} ms` : ""})`,
      "",
    ].join("\n"),
  );
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigFileError || error instanceof Error ? error.message : String(error);
  process.stderr.write(`pancake-mcp: ${message}\n`);
  process.exit(2);
});
