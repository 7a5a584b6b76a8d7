import { readFileSync } from "node:fs";

// The bundle has the version written in at build time (scripts/build.mjs), since its chunks do not
// sit next to package.json; run from source (tests, tsx), package.json is one level up.
declare const __PANCAKE_MCP_VERSION__: string | undefined;

export const VERSION: string =
  typeof __PANCAKE_MCP_VERSION__ === "string"
    ? __PANCAKE_MCP_VERSION__
    : (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
