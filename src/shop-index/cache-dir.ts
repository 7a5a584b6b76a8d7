import { homedir } from "node:os";
import { join } from "node:path";

/** Where the shop index is kept by default: the user's cache folder, as each platform names it. */
export function defaultIndexDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  const base =
    env.XDG_CACHE_HOME ||
    (platform === "darwin" ? join(home, "Library", "Caches") : platform === "win32" ? env.LOCALAPPDATA || join(home, "AppData", "Local") : join(home, ".cache"));
  return join(base, "pancake-mcp", "index");
}
