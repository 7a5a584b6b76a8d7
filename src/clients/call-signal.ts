import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The abort signal of the MCP request being served, seen by every upstream request made on its
 * behalf without threading it through each client method: a client that cancels
 * (notifications/cancelled) or goes away (the SDK aborts its handlers when the transport closes)
 * ends the upstream request in flight and any retry or rate-limit wait, so an abandoned read stops
 * spending the page's rate budget.
 */
const current = new AsyncLocalStorage<AbortSignal>();

export function withSignal<T>(signal: AbortSignal | undefined, fn: () => T): T {
  return signal ? current.run(signal, fn) : fn();
}

export function callSignal(): AbortSignal | undefined {
  return current.getStore();
}
