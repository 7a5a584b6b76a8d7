// `npm run attack`: replays every attack on the built server (test/security/: raw HTTP against the
// spawned bin, real MCP clients over stdio and HTTP, hostile upstreams of our own on loopback, one
// in a process of its own) and prints what held and what broke (`-- --verbose`: every attempt by
// name). Not part of CI, where the same files run as ordinary tests; this is the one-screen answer
// to "does the README's Security section hold?".
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The load test measures throughput and memory, not an attack; everything else in the folder is one.
const EXCLUDE = ["test/security/http-load.test.ts"];

const started = Date.now();
const build = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const dir = mkdtempSync(join(tmpdir(), "pancake-attack-"));
const report = join(dir, "report.json");
const vitest = spawnSync(
  process.execPath,
  ["node_modules/vitest/vitest.mjs", "run", "test/security/", ...EXCLUDE.flatMap((f) => ["--exclude", f]), "--reporter=json", `--outputFile=${report}`],
  { stdio: ["ignore", "ignore", "inherit"] },
);
let results;
try {
  results = JSON.parse(readFileSync(report, "utf8"));
} catch {
  process.stderr.write(`attack: vitest produced no report (exit ${vitest.status})\n`);
  process.exit(1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// One line per attack file; every attempt by name with --verbose, and always the ones that broke.
const verbose = process.argv.includes("--verbose");
let held = 0;
let broke = 0;
const lines = [];
for (const file of results.testResults.sort((a, b) => a.name.localeCompare(b.name))) {
  const name = file.name.replace(`${process.cwd()}/`, "");
  const tests = file.assertionResults.filter((t) => t.status === "passed" || t.status === "failed");
  const ok = tests.filter((t) => t.status === "passed");
  const bad = tests.filter((t) => t.status === "failed");
  // A file that could not run at all (a crash in its setup) counts as one attack that broke.
  const crashed = tests.length === 0 ? 1 : 0;
  held += ok.length;
  broke += bad.length + crashed;
  lines.push(`${String(ok.length).padStart(4)} held ${String(bad.length + crashed).padStart(3)} broke  ${name}`);
  if (crashed) lines.push(`      BROKE  the file did not run: ${(file.message || "no tests").split("\n")[0]}`);
  for (const test of verbose ? tests : bad) {
    lines.push(`      ${test.status === "passed" ? "held " : "BROKE"}  ${[...test.ancestorTitles, test.title].join(" > ")}`);
    if (test.status === "failed") lines.push(`             ${(test.failureMessages[0] ?? "").split("\n")[0].slice(0, 200)}`);
  }
}
process.stdout.write(`${lines.join("\n")}\n\n`);
process.stdout.write(`${held} held, ${broke} broke (${Math.round((Date.now() - started) / 1000)} s)\n`);
process.exit(broke === 0 ? 0 : 1);
