// Bundles the bin so start-up reads a few files instead of hundreds, and so the package needs no
// runtime dependencies. dist/cli.js is a tiny entry that checks the Node version and then imports
// the program; the sandbox and the transports are split into chunks loaded only when used.
import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import { build } from "esbuild";
import { buildViews } from "./build-views.mjs";
import { thirdPartyNotices } from "./notices.mjs";

const pkg = JSON.parse(await readFile("package.json", "utf8"));

await rm("dist", { recursive: true, force: true });
const result = await build({
  entryPoints: { cli: "src/bin.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  define: { __PANCAKE_MCP_VERSION__: JSON.stringify(pkg.version) },
  metafile: true,
  logLevel: "warning",
});
await chmod("dist/cli.js", 0o755);
await buildViews();
// Legal comments are left out of the bundle; the licences of what it contains ship beside it.
await writeFile("dist/THIRD_PARTY_NOTICES.md", await thirdPartyNotices(result.metafile));
