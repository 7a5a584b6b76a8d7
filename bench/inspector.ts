// A full garbage collection in a child node process, asked for through the inspector protocol
// (the child runs with --inspect=127.0.0.1:0). Memory read after it shows what the process keeps
// alive, not garbage V8 has simply not got round to collecting yet.
import type { Readable } from "node:stream";
import { WebSocket } from "undici";

/** The inspector's WebSocket URL, from the "Debugger listening on ws://..." line on stderr. */
export function inspectorUrl(stderr: Readable): Promise<string> {
  let seen = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no inspector URL on stderr: ${seen.slice(0, 200)}`)), 10_000);
    stderr.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
}

export async function collectGarbage(url: string): Promise<void> {
  const socket = new WebSocket(url);
  try {
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", () => reject(new Error(`inspector at ${url} refused the connection`)), { once: true });
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no answer to HeapProfiler.collectGarbage in 30 s")), 30_000);
      socket.addEventListener("message", (event) => {
        const reply = JSON.parse(String(event.data)) as { id?: number; error?: { message?: string } };
        if (reply.id !== 1) return;
        clearTimeout(timer);
        if (reply.error) reject(new Error(`HeapProfiler.collectGarbage: ${reply.error.message}`));
        else resolve();
      });
      socket.send(JSON.stringify({ id: 1, method: "HeapProfiler.collectGarbage" }));
    });
  } finally {
    socket.close();
  }
}
