#!/usr/bin/env node
// The bin's entry: it checks the Node version before anything else loads. The program itself is a
// chunk imported only after the check, so this file must parse and run on any Node still in use:
// no static imports, no syntax newer than ES2017. On a Node older than `engines` the program would
// start and then fail: its shop index lives in node:sqlite, which Node has without a flag from 22.13.

/** The minimum of package.json `engines.node` (a test keeps them, and the README, in step). */
const MINIMUM_NODE = "22.13.0";

function older(version: string, minimum: string): boolean {
  const have = version.split(".").map(Number);
  const need = minimum.split(".").map(Number);
  for (let i = 0; i < need.length; i++) {
    if ((have[i] || 0) !== need[i]) return (have[i] || 0) < (need[i] as number);
  }
  return false;
}

if (older(process.versions.node, MINIMUM_NODE)) {
  process.stderr.write(`pancake-mcp needs Node.js ${MINIMUM_NODE} or newer; this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
} else {
  import("./cli.js");
}
