// Prints each tool's tools/list entry size in bytes (entry, input schema), largest
// first, to find what to trim when the context budget test (test/tools/context-budget.test.ts) fails.
import { allTools } from "../src/tools/index.js";
import { listedTool } from "../src/tools/listing.js";

const rows = allTools.map(listedTool).map((t) => [t.name, JSON.stringify(t).length, JSON.stringify(t.inputSchema).length] as const);
for (const [name, entry, input] of rows.sort((a, b) => b[1] - a[1])) console.log(name, entry, input);
