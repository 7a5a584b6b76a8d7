// Writes docs/tools.md from the registry; with --check, exits 1 when the committed file is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { renderToolDocs } from "../src/tools/docs.js";
import { allTools } from "../src/tools/index.js";

const target = new URL("../docs/tools.md", import.meta.url);
const fresh = renderToolDocs(allTools);
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {}
  if (current !== fresh) {
    process.stderr.write("docs/tools.md is stale: run `npm run docs` and commit it\n");
    process.exit(1);
  }
} else {
  writeFileSync(target, fresh);
}
