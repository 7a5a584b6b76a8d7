// `npm run bundle`: the MCP Bundle (.mcpb) for one-click install in Claude Desktop. It holds
// manifest.json and the built bin under server/ (the bin needs no node_modules), packed and
// validated by the MCPB tooling (@anthropic-ai/mcpb). Run after `npm run build`.
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const pkg = JSON.parse(await readFile("package.json", "utf8"));
const manifest = JSON.parse(await readFile("manifest.json", "utf8"));
if (manifest.version !== pkg.version) throw new Error(`manifest.json version ${manifest.version} is not package.json's ${pkg.version}`);
await stat("dist/cli.js").catch(() => {
  throw new Error("dist/cli.js is missing: run `npm run build` first");
});

const stage = await mkdtemp(join(tmpdir(), "pancake-mcpb-"));
try {
  await cp("dist", join(stage, "server"), { recursive: true });
  for (const file of ["manifest.json", "LICENSE", "README.md"]) await cp(file, join(stage, file));
  // The bin is ES modules: Node reads server/*.js as such only under a package.json that says so.
  await writeFile(join(stage, "package.json"), `${JSON.stringify({ name: pkg.name, version: pkg.version, type: "module", license: pkg.license }, null, 2)}\n`);
  const out = `${pkg.name}-${pkg.version}.mcpb`;
  execFileSync(process.execPath, ["node_modules/@anthropic-ai/mcpb/dist/cli/cli.js", "pack", stage, out], { stdio: "inherit" });
  console.log(`wrote ${out}`);
} finally {
  await rm(stage, { recursive: true, force: true });
}
