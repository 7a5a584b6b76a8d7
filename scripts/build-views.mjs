// Builds each chart view (src/ui/views/*.ts) into one self-contained HTML file, dist/ui/NAME.html:
// the script and the styles inlined, nothing loaded from elsewhere (hosts' CSP blocks it).
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { build, transform } from "esbuild";

const require = createRequire(import.meta.url);

// zod, which the ext-apps App class validates messages with, re-exports every locale (about 260 kB
// minified); a view only ever shows zod's English defaults, so the locale index becomes English alone.
const englishOnlyZod = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${"/"}zod${"/"}`) ? { path: require.resolve("zod/v4/locales/en.js"), namespace: "zod-en" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-en" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      loader: "js",
      resolveDir: process.cwd(),
    }));
  },
};

export async function buildViews(outDir = "dist/ui") {
  const names = (await readdir("src/ui/views")).filter((f) => f.endsWith(".ts")).map((f) => f.slice(0, -3));
  const css = (await transform(await readFile("src/ui/app/style.css", "utf8"), { loader: "css", minify: true })).code;
  await mkdir(outDir, { recursive: true });
  await Promise.all(
    names.map(async (name) => {
      const result = await build({
        entryPoints: [`src/ui/views/${name}.ts`],
        bundle: true,
        write: false,
        format: "iife",
        platform: "browser",
        target: "es2022",
        minify: true,
        legalComments: "none",
        plugins: [englishOnlyZod],
        logLevel: "warning",
      });
      // "</script" can only occur inside a string here, where "<\/script" means the same.
      const js = result.outputFiles[0].text.replace(/<\/(script)/gi, "<\\/$1");
      const html = `<!doctype html><html lang="vi"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><style>${css}</style></head><body><main id="root"></main><script>${js}</script></body></html>`;
      await writeFile(`${outDir}/${name}.html`, html);
    }),
  );
  return names;
}
