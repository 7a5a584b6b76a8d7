import { startHarness } from "../test/helpers/harness.ts";
const h = await startHarness();
const { tools } = await h.client.listTools();
for (const name of process.argv.slice(2)) console.log(JSON.stringify(tools.find((t) => t.name === name)));
await h.close();
