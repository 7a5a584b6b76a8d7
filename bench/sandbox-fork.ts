import { fork } from "node:child_process";
import type { SandboxCredentials, SandboxUrls } from "../src/sandbox/index.js";
import type { Ask, Answer } from "./sandbox-process.js";

/**
 * The sandbox in a child process (bench/sandbox-process.ts), configured by its SANDBOX_* variables;
 * fails rather than hangs if it does not start. `ask` puts a question to it over IPC (request
 * counts, the truth of its raw records). `heapMb` raises its heap limit (a 1000x shop holds 2.4 GB).
 */
export async function forkSandbox(env: Record<string, string> = {}, startMs = 30_000, heapMb?: number) {
  const child = fork(new URL("./sandbox-process.ts", import.meta.url).pathname, {
    execArgv: ["--import", "tsx", "--expose-gc", ...(heapMb ? [`--max-old-space-size=${heapMb}`] : [])],
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const started = await new Promise<{ urls: SandboxUrls; credentials: SandboxCredentials; buildMs: number; heapMb: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox process did not start in ${startMs / 1000} s`)), startMs);
    child.once("message", (m) => {
      clearTimeout(timer);
      resolve(m as { urls: SandboxUrls; credentials: SandboxCredentials; buildMs: number; heapMb: number });
    });
    child.once("exit", (code) => reject(new Error(`the sandbox process exited (${code})`)));
    child.once("error", reject);
  }).catch((error) => {
    child.kill();
    throw error;
  });
  const waiting = new Map<number, (answer: Answer) => void>();
  child.on("message", (m) => {
    const answer = m as Answer & { id: number };
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  let next = 0;
  const ask = <A extends Answer>(question: Ask): Promise<A> => {
    const id = ++next;
    return new Promise((resolve, reject) => {
      waiting.set(id, (answer) => resolve(answer as A));
      if (!child.send({ ...question, id })) reject(new Error("the sandbox process is gone"));
    });
  };
  return {
    urls: started.urls,
    credentials: started.credentials,
    userToken: started.credentials.userToken,
    /** How long the sandbox took to build its shop, and the heap it holds after (a full collection). */
    buildMs: started.buildMs,
    heapMb: started.heapMb,
    pid: child.pid!,
    ask,
    stop: () => child.kill(),
  };
}

export type ForkedSandbox = Awaited<ReturnType<typeof forkSandbox>>;
