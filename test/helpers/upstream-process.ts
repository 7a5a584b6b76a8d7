import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface UpstreamProcess<T> {
  child: ChildProcess;
  /** What the child sent first (its URLs and credentials). */
  info: T;
  /** Sends `message` and resolves with the child's next answer. */
  ask<A>(message: string): Promise<A>;
  close(): Promise<void>;
}

/** Runs a test upstream (test/security/upstreams/NAME.ts) in a process of its own. */
export async function startUpstreamProcess<T>(name: string): Promise<UpstreamProcess<T>> {
  const script = fileURLToPath(new URL(`../security/upstreams/${name}.ts`, import.meta.url));
  const child = fork(script, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const info = await new Promise<T>((resolve, reject) => {
    child.once("message", (m) => resolve(m as T));
    child.once("exit", (code) => reject(new Error(`upstream ${name} exited with ${code}`)));
  });
  return {
    child,
    info,
    ask: (message) =>
      new Promise((resolve) => {
        child.once("message", (m) => resolve(m as never));
        child.send(message);
      }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.disconnect();
      }),
  };
}
