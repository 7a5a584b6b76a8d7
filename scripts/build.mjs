// Bundles the bin so start-up reads a few files instead of hundreds; the sandbox and the
// transports are split into chunks loaded only when used.
import { build } from "esbuild";
import { chmod, rm } from "node:fs/promises";
import { buildViews } from "./build-views.mjs";

await rm("dist", { recursive: true, force: true });
await build({
  entryPoints: ["src/cli.ts"],
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  chunkNames: "chunks/[name]-[hash]",
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: "warning",
});
await chmod("dist/cli.js", 0o755);
await buildViews();
