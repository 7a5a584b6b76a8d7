import { execFile } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHROMIUM, ensureTestDeps } from "../../scripts/test-deps.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SCRIPT = join(ROOT, "scripts", "test-deps.mjs");

// scripts/test-deps.mjs, which `npm test` and `.ci/run` run before anything else. The machine is
// stood in for: Chromium's path is a file in a temporary folder, and PATH holds only that folder's
// bin/, where apt-get and sudo are stubs that write down how they were called (and apt-get "installs"
// by creating the programs). The real apt is never called.
describe("scripts/test-deps.mjs: Chromium and redis-server before the suite", () => {
  let dir: string;
  let bin: string;
  let chromium: string;
  let calls: string;
  let lines: string[];

  const script = (file: string, body: string) => {
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
  };
  const program = (file: string) => script(file, "exit 0");
  /** apt-get: records its arguments and DEBIAN_FRONTEND; `install` creates what it names, or fails with `failWith`. */
  const aptGet = ({ failWith, creates = true }: { failWith?: string; creates?: boolean } = {}) =>
    script(
      join(bin, "apt-get"),
      [
        `echo "apt-get $* [DEBIAN_FRONTEND=$DEBIAN_FRONTEND]" >> ${calls}`,
        "PATH=/usr/bin:/bin",
        failWith ? `[ "$1" = install ] && { echo "${failWith}" >&2; exit 100; }` : "",
        creates ? `for p in "$@"; do case $p in chromium) ${makeProgram(chromium)};; redis-server) ${makeProgram(join(bin, "redis-server"))};; esac; done` : "",
        "exit 0",
      ].join("\n"),
    );
  const makeProgram = (file: string) => `printf '#!/bin/sh\\n' > ${file}; chmod 755 ${file}`;
  /** sudo: records its arguments; `-n true` answers `passwordless`; otherwise runs the command. */
  const sudo = (passwordless: boolean) =>
    script(join(bin, "sudo"), [`echo "sudo $*" >> ${calls}`, `[ "$1" = -n ] && shift`, `[ "$1" = true ] && exit ${passwordless ? 0 : 1}`, `PATH=/usr/bin:/bin exec "$@"`].join("\n"));
  const recorded = () => {
    try {
      return readFileSync(calls, "utf8").trim().split("\n");
    } catch {
      return [];
    }
  };
  const ensure = (options: { platform?: NodeJS.Platform; uid?: number } = {}) =>
    ensureTestDeps({ platform: "linux", uid: 0, chromium, env: { PATH: bin }, log: (line) => lines.push(line), ...options });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "pancake-test-deps-"));
    bin = join(dir, "bin");
    await mkdir(bin);
    chromium = join(dir, "chromium");
    calls = join(dir, "calls");
    lines = [];
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("looks where the tests look: Chromium at /usr/bin/chromium, redis-server on the PATH", () => {
    expect(CHROMIUM).toBe("/usr/bin/chromium");
    expect(readFileSync(join(ROOT, "test/ui/views.test.ts"), "utf8")).toContain(`const CHROMIUM = "${CHROMIUM}";`);
    expect(readFileSync(join(ROOT, "test/helpers/redis.ts"), "utf8")).toContain(`spawn("redis-server", [`);
  });

  it("says nothing and calls nothing when both are there", () => {
    program(chromium);
    program(join(bin, "redis-server"));
    aptGet();
    expect(ensure()).toBe(0);
    expect(lines).toEqual([]);
    expect(recorded()).toEqual([]);
  });

  it("as root with apt, installs both when both are missing, saying so", () => {
    aptGet();
    expect(ensure()).toBe(0);
    expect(recorded()).toEqual([
      `apt-get update -qq [DEBIAN_FRONTEND=noninteractive]`,
      `apt-get install -y -qq chromium redis-server [DEBIAN_FRONTEND=noninteractive]`,
    ]);
    expect(lines[0]).toBe(
      `npm test needs Chromium at ${chromium} (test/ui/views.test.ts launches it) and redis-server on the PATH (test/helpers/redis.ts starts it): they are not installed.`,
    );
    expect(lines[1]).toBe("Installing Debian's chromium redis-server with apt-get...");
    expect(lines[2]).toMatch(/^Installed chromium redis-server in \d+ s\.$/);
  });

  it("installs only what is missing", () => {
    program(chromium);
    aptGet();
    expect(ensure()).toBe(0);
    expect(recorded()).toEqual([`apt-get update -qq [DEBIAN_FRONTEND=noninteractive]`, `apt-get install -y -qq redis-server [DEBIAN_FRONTEND=noninteractive]`]);
    expect(lines[0]).toBe("npm test needs redis-server on the PATH (test/helpers/redis.ts starts it): it is not installed.");
  });

  it("not root, with passwordless sudo: installs through sudo, the variable passed through env", () => {
    program(join(bin, "redis-server"));
    aptGet();
    sudo(true);
    expect(ensure({ uid: 1000 })).toBe(0);
    expect(recorded()).toEqual([
      "sudo -n true",
      `sudo -n env DEBIAN_FRONTEND=noninteractive ${bin}/apt-get update -qq`,
      `apt-get update -qq [DEBIAN_FRONTEND=noninteractive]`,
      `sudo -n env DEBIAN_FRONTEND=noninteractive ${bin}/apt-get install -y -qq chromium`,
      `apt-get install -y -qq chromium [DEBIAN_FRONTEND=noninteractive]`,
    ]);
    expect(lines[1]).toBe("Installing Debian's chromium with apt-get (sudo)...");
  });

  it("not root, sudo asking for a password: stops at once with the apt command, installing nothing", () => {
    aptGet();
    sudo(false);
    expect(ensure({ uid: 1000 })).toBe(1);
    expect(recorded()).toEqual(["sudo -n true"]);
    expect(lines.slice(1)).toEqual(["Installing them takes root; run this, then npm test again:", "  sudo apt-get install -y chromium redis-server"]);
  });

  it("not root and no sudo: the same", () => {
    aptGet();
    expect(ensure({ uid: 1000 })).toBe(1);
    expect(recorded()).toEqual([]);
    expect(lines.at(-1)).toBe("  sudo apt-get install -y chromium redis-server");
  });

  it("without apt-get: stops, naming the path Chromium must have and a Debian container", () => {
    expect(ensure()).toBe(1);
    expect(lines[1]).toBe(
      `This system has no apt-get. Install them with its package manager (Chromium so that it is ${chromium}), or run the suite in Debian, in a container:`,
    );
    expect(lines[2]).toMatch(/^ {2}docker run --rm .* node:22-bookworm .*npm ci && npm test'$/);
  });

  it("on macOS: says Chromium cannot be where the tests look, gives a Debian container, brew for redis-server; never apt", () => {
    aptGet();
    expect(ensure({ platform: "darwin", uid: 501 })).toBe(1);
    expect(recorded()).toEqual([]);
    expect(lines[1]).toBe(`On macOS nothing can be put at ${chromium} (the system keeps /usr/bin read-only) and the browser tests look nowhere`);
    expect(lines[3]).toMatch(/^ {2}docker run --rm .* node:22-bookworm .*npm ci && npm test'$/);
    expect(lines[4]).toBe("(redis-server alone, for the tests outside test/ui, on this Mac: brew install redis)");
  });

  it("on macOS with only redis-server missing: brew", () => {
    program(chromium);
    expect(ensure({ platform: "darwin", uid: 501 })).toBe(1);
    expect(lines.slice(1)).toEqual(["Run this, then npm test again:", "  brew install redis"]);
  });

  it("on Windows: WSL", () => {
    expect(ensure({ platform: "win32", uid: undefined })).toBe(1);
    expect(lines[1]).toContain("wsl --install -d Debian");
  });

  it("apt-get failing: shows its last lines and the command, exit 1", () => {
    aptGet({ failWith: "E: Unable to locate package chromium" });
    expect(ensure()).toBe(1);
    expect(lines).toContain("  | E: Unable to locate package chromium");
    expect(lines.slice(-2)).toEqual(["apt-get install failed (exit 100); install them yourself, then npm test again:", "  apt-get install -y chromium redis-server"]);
  });

  it("apt-get succeeding without the program appearing where the tests look: exit 1", () => {
    aptGet({ creates: false });
    expect(ensure()).toBe(1);
    expect(lines.at(-1)).toBe(`apt-get installed chromium redis-server, but ${chromium} and redis-server on the PATH are still missing.`);
  });

  it("the script itself, on this machine (which the suite needs both on): exit 0, no output", async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT]);
    expect(stdout + stderr).toBe("");
  });

  it("is the one step: npm test runs it before building, .ci/run before npm ci, and neither installs by itself", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.test).toMatch(/^node scripts\/test-deps\.mjs && node scripts\/build\.mjs && /);
    expect(pkg.scripts.pretest).toBeUndefined();
    const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
    const step = ci.search(/^node scripts\/test-deps\.mjs$/m);
    expect(step).toBeGreaterThan(-1);
    expect(step).toBeLessThan(ci.search(/^npm ci /m));
    expect(step).toBeLessThan(ci.search(/vitest\.mjs run/));
    expect(ci).not.toMatch(/apt-get (update|install)/);
    for (const script of ["demo", "build", "bundle", "prepare"]) expect(pkg.scripts[script]).not.toContain("test-deps");
  });
});
