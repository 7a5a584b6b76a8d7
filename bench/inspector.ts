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
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  const done = new Promise<void>((resolve) => socket.addEventListener("message", () => resolve(), { once: true }));
  socket.send(JSON.stringify({ id: 1, method: "HeapProfiler.collectGarbage" }));
  await done;
  socket.close();
}
