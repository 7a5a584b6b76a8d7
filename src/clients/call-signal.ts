import { NetworkError } from "./errors.js";

/**
 * The abort signal of the MCP request being served, carried to every upstream request made on its
 * behalf without threading it through each client method: a client that cancels
 * (notifications/cancelled) or goes away (the SDK aborts its handlers when the transport closes)
 * ends the upstream request in flight and any retry or rate-limit wait, so an abandoned read stops
 * spending the page's rate budget.
 *
 * A call gets views of the shared clients whose HTTP core answers `signal` with the call's signal;
 * everything else (state, caches, writes to fields) reaches the shared objects. Views rather than
 * AsyncLocalStorage, which on Node 20 slows every promise in the process (about 0.25 ms a tool
 * call, half the per-call budget).
 */
const ORIGINAL = Symbol("original client");

export function signalled<C extends object>(client: C, signal: AbortSignal): C {
  const core = Reflect.get(client, "core") as object | undefined;
  if (!core) return client;
  const coreView = new Proxy(core, { get: (target, key, receiver) => (key === "signal" ? signal : Reflect.get(target, key, receiver)) });
  return new Proxy(client, {
    get: (target, key, receiver) => (key === ORIGINAL ? target : key === "core" ? coreView : Reflect.get(target, key, receiver)),
  });
}

/** The shared client behind a view: what caches keyed by client must use. */
export function original<C extends object>(client: C): C {
  return (Reflect.get(client, ORIGINAL) as C | undefined) ?? client;
}

/** The signal of the call a client view serves; undefined for the shared client. */
export function callSignal(client: object): AbortSignal | undefined {
  return (Reflect.get(client, "core") as { signal?: AbortSignal } | undefined)?.signal;
}

/**
 * A load that several calls share, as one of them awaits it: the load runs on the shared client
 * (no call's signal), so one caller cancelling never fails the others; that caller alone stops
 * waiting.
 */
export function awaitShared<T>(shared: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return shared;
  if (signal.aborted) return Promise.reject(new NetworkError("request", "network", "cancelled by the client"));
  return new Promise<T>((resolve, reject) => {
    const cancel = () => reject(new NetworkError("request", "network", "cancelled by the client"));
    signal.addEventListener("abort", cancel, { once: true });
    shared.then(resolve, reject).finally(() => signal.removeEventListener("abort", cancel));
  });
}
