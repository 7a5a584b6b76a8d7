import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * A Node binary of at least `major`: this one when it is recent enough, else one of that line from
 * the npm registry, which serves each release's binary as a package (node-<os>-<arch>), fetched once
 * into the cache .ci/run uses for the same binaries. For tools the suite runs that need a newer Node
 * than the project's minimum (the conformance suite uses fs.globSync, Node 22).
 */
export function nodeOfAtLeast(major: number): string {
  if (Number(process.versions.node.split(".")[0]) >= major) return process.execPath;
  const platform = `${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pancake-mcp-ci", `node-${platform}-${major}`);
  const bin = join(cache, "bin", "node");
  if (!existsSync(bin)) {
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    const tarball = execFileSync("npm", ["pack", `node-${platform}@${major}`, "--pack-destination", cache, "--silent"], { encoding: "utf8" }).trim().split("\n").at(-1)!;
    execFileSync("tar", ["-xzf", join(cache, tarball), "-C", cache, "--strip-components=1", "package/bin/node"]);
    rmSync(join(cache, tarball));
  }
  return bin;
}
