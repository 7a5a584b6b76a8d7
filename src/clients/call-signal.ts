import type { Logger } from "../log.js";

/**
 * The abort signal of the MCP request being served, carried to every upstream request made on its
 * behalf without threading it through each client method: a client that cancels
 * (notifications/cancelled) or goes away (the SDK aborts its handlers when the transport closes)
 * ends the upstream request in flight and any retry or rate-limit wait, so an abandoned read stops
 * spending the page's rate budget. The request's id and logger travel the same way, so upstream
 * requests carry the id (X-Request-Id) and their log lines name it.
 *
 * A call gets views of the shared clients whose HTTP core answers `signal` (and `requestId`,
 * `logger`) with the call's; everything else (state, caches, writes to fields) reaches the shared
 * objects. Views rather than AsyncLocalStorage, which on Node 20 slows every promise in the process
 * (about 0.25 ms a tool call, half the per-call budget).
 */
const ORIGINAL = Symbol("original client");

export interface CallInfo {
  signal: AbortSignal;
  requestId?: string;
  logger?: Logger;
}

export function signalled<C extends object>(client: C, call: AbortSignal | CallInfo): C {
  const core = Reflect.get(client, "core") as object | undefined;
  if (!core) return client;
  const info: CallInfo = call instanceof AbortSignal ? { signal: call } : call;
  const coreView = new Proxy(core, {
    get: (target, key, receiver) =>
      key === "signal"
        ? info.signal
        : key === "requestId"
          ? info.requestId
          : key === "logger" && info.logger
            ? info.logger
            : Reflect.get(target, key, receiver),
  });
  return new Proxy(client, {
    get: (target, key, receiver) => (key === ORIGINAL ? target : key === "core" ? coreView : Reflect.get(target, key, receiver)),
  });
}

/** The shared client behind a view: what caches keyed by client must use. */
export function original<C extends object>(client: C): C {
  return (Reflect.get(client, ORIGINAL) as C | undefined) ?? client;
}
