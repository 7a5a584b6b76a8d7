// The two programs the test suite needs besides Node, made sure of before it builds (`npm test`
// runs this first; so does `.ci/run`): Chromium at /usr/bin/chromium, where test/ui/views.test.ts
// launches it, and redis-server on the PATH, which test/helpers/redis.ts starts. The tests never
// skip, so without them a run fails test by test minutes later. Where one is missing and this
// machine can install it (apt-get, as root or with passwordless sudo), this installs Debian's
// package and says so; where it cannot, it stops at once with the command to run there.
// Plain Node with no dependencies: it runs before `npm ci` and on any system.
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";

/** Where test/ui/views.test.ts launches Chromium (the only place it looks). */
export const CHROMIUM = "/usr/bin/chromium";

const DOCKER =
  `docker run --rm --shm-size=1g -v "$PWD":/src:ro node:22-bookworm sh -c ` +
  `'mkdir /w && cd /w && tar -C /src --exclude=./node_modules --exclude=./dist -cf - . | tar -xf - && npm ci && npm test'`;

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The program's path as a spawn by name finds it on `PATH`, or undefined. */
export function onPath(name, path) {
  for (const dir of (path ?? "").split(delimiter)) if (dir && executable(join(dir, name))) return join(dir, name);
  return undefined;
}

/**
 * Checks for both programs the way the tests look for them; installs the missing ones with apt where
 * it can. Returns the exit code; what it says goes to `log`, one line per call. Everything it reads
 * of the machine comes in as an option so that a test can stand in for any of it.
 */
export function ensureTestDeps({
  platform = process.platform,
  env = process.env,
  uid = process.getuid?.(),
  chromium = CHROMIUM,
  log = (line) => process.stderr.write(`${line}\n`),
} = {}) {
  const find = () => {
    const missing = [];
    if (!executable(chromium)) missing.push("chromium");
    if (!onPath("redis-server", env.PATH)) missing.push("redis-server");
    return missing;
  };
  const missing = find();
  if (missing.length === 0) return 0;

  const what = missing
    .map((name) => (name === "chromium" ? `Chromium at ${chromium} (test/ui/views.test.ts launches it)` : "redis-server on the PATH (test/helpers/redis.ts starts it)"))
    .join(" and ");
  log(`npm test needs ${what}: ${missing.length === 1 ? "it is" : "they are"} not installed.`);
  const packages = missing.join(" ");

  if (platform === "darwin") {
    if (missing.includes("chromium")) {
      log(`On macOS nothing can be put at ${chromium} (the system keeps /usr/bin read-only) and the browser tests look nowhere`);
      log(`else, so the whole suite runs in Debian: from this folder, in a container, where npm test installs both itself:`);
      log(`  ${DOCKER}`);
      if (missing.includes("redis-server")) log(`(redis-server alone, for the tests outside test/ui, on this Mac: brew install redis)`);
    } else {
      log(`Run this, then npm test again:`);
      log(`  brew install redis`);
    }
    return 1;
  }
  if (platform === "win32") {
    log(`The suite runs on Debian: in WSL (wsl --install -d Debian), run npm ci && npm test there (as root it installs both itself).`);
    return 1;
  }
  const aptGet = onPath("apt-get", env.PATH);
  if (!aptGet) {
    log(`This system has no apt-get. Install them with its package manager (Chromium so that it is ${chromium}), or run the suite in Debian, in a container:`);
    log(`  ${DOCKER}`);
    return 1;
  }
  let asRoot = [];
  if (uid !== 0) {
    const sudo = onPath("sudo", env.PATH);
    if (!sudo || spawnSync(sudo, ["-n", "true"], { env, stdio: "ignore" }).status !== 0) {
      log(`Installing them takes root; run this, then npm test again:`);
      log(`  sudo apt-get install -y ${packages}`);
      return 1;
    }
    // sudo resets the environment: the variable goes through env(1).
    asRoot = [sudo, "-n", "env", "DEBIAN_FRONTEND=noninteractive"];
  }

  log(`Installing Debian's ${packages} with apt-get${uid === 0 ? "" : " (sudo)"}...`);
  const started = Date.now();
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", ...missing],
  ]) {
    const argv = [...asRoot, aptGet, ...args];
    const run = spawnSync(argv[0], argv.slice(1), {
      env: { ...env, DEBIAN_FRONTEND: "noninteractive" },
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) {
      const output = `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? run.error.message : ""}`.trim().split("\n").slice(-20);
      for (const line of output) log(`  | ${line}`);
      log(`apt-get ${args[0]} failed (${run.status === null ? run.signal || "did not start" : `exit ${run.status}`}); install them yourself, then npm test again:`);
      log(`  ${uid === 0 ? "" : "sudo "}apt-get install -y ${packages}`);
      return 1;
    }
  }
  const still = find();
  if (still.length > 0) {
    const gone = still.map((name) => (name === "chromium" ? chromium : "redis-server on the PATH"));
    log(`apt-get installed ${packages}, but ${gone.join(" and ")} ${gone.length === 1 ? "is" : "are"} still missing.`);
    return 1;
  }
  log(`Installed ${packages} in ${Math.round((Date.now() - started) / 1000)} s.`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = ensureTestDeps();
