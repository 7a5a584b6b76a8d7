import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (as an outage would); `start` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A free loopback port (bound, read and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A real Redis (Debian's redis-server; `.ci/run` installs it) on a free loopback port, with no
 * persistence. A test that needs it fails when it cannot start: nothing is mocked or skipped.
 */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = proc;
      let out = "";
      const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port}:\n${out}`)), 10_000);
      proc.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once("error", (error) => {
        clearTimeout(timer);
        reject(new Error(`redis-server could not be started (install Debian's redis-server package): ${error.message}`));
      });
      proc.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${out}`));
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const proc = child;
      // Stopped already (killed, so no exit code): nothing to wait for.
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once("exit", () => resolve());
      proc.kill("SIGKILL");
    });
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}
