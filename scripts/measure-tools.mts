import { startHarness } from "../test/helpers/harness.js";
const h = await startHarness();
const { tools } = await h.client.listTools();
for (const t of tools) console.log(t.name, JSON.stringify(t).length, JSON.stringify(t.inputSchema).length, JSON.stringify(t.outputSchema).length);
await h.close();
