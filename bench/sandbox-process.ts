// The sandbox in a process of its own, as the real upstream is: a direct call to it then crosses
// the same process boundary as the server's own upstream call, so subtracting it leaves exactly
// what the MCP layer adds. Sends its URLs and credentials over IPC; exits when the parent goes.
// SANDBOX_SCALE and SANDBOX_LATENCY_MS make it a bigger or slower shop (SandboxOptions).
import { Sandbox } from "../src/sandbox/index.js";

const number = (text: string | undefined) => (text ? Number(text) : undefined);
const sandbox = new Sandbox({
  ratePerSecond: 1_000_000,
  extraPages: 7,
  scale: number(process.env.SANDBOX_SCALE),
  latencyMs: number(process.env.SANDBOX_LATENCY_MS),
});
const urls = await sandbox.start();
process.send?.({ urls, credentials: sandbox.credentials });
process.on("disconnect", () => process.exit(0));
