import { cancelledByClient } from "./errors.js";
import type { Logger } from "../log.js";
import { onAbort } from "./on-abort.js";

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

/** The signal of the call a client view serves; undefined for the shared client. */
export function callSignal(client: object): AbortSignal | undefined {
  return (Reflect.get(client, "core") as { signal?: AbortSignal } | undefined)?.signal;
}

/**
 * A view of a call's client whose requests also end when `signal` aborts: a bound of the call's
 * own (a deadline) on top of the client's cancellation, with the same request id and logger.
 */
export function bounded<C extends object>(view: C, signal: AbortSignal): C {
  const own = (Reflect.get(view, "core") as { signal?: AbortSignal } | undefined)?.signal;
  return rebound(view, own ? AbortSignal.any([own, signal]) : signal);
}

/** A view of a call's client answering `signal` instead of its own (one that already ends with it), with the same request id and logger. */
export function rebound<C extends object>(view: C, signal: AbortSignal): C {
  const core = Reflect.get(view, "core") as { requestId?: string; logger?: Logger } | undefined;
  return signalled(original(view), { signal, requestId: core?.requestId, logger: core?.logger });
}

interface Joint {
  controller: AbortController;
  waiters: number;
}

const joints = new WeakMap<object, Map<string, Joint>>();

/**
 * A load several calls may share (a cached list, the page list). `share` starts it at most once
 * while it is in flight (a cache's own de-duplication); it runs on a view of the shared client
 * that keeps the first caller's request id and logger but whose signal aborts only once every call
 * waiting on it has been cancelled. So one caller going away ends its own wait and never fails
 * the others, and a load nobody waits for any more stops spending the page's rate budget.
 */
export function joinedLoad<C extends object, T>(
  scope: object,
  key: string,
  view: C,
  share: (start: () => Promise<T>) => Promise<T>,
  load: (client: C) => Promise<T>,
): Promise<T> {
  // A call already cancelled starts nothing: a load it began and at once gave up would be given up
  // for every call that joins it meanwhile (a read left running past its call's cancel met one).
  if (callSignal(view)?.aborted) return Promise.reject(cancelledByClient());
  const inFlight = joints.get(scope) ?? new Map<string, Joint>();
  joints.set(scope, inFlight);
  const promise = share(() => {
    const joint: Joint = { controller: new AbortController(), waiters: 0 };
    inFlight.set(key, joint);
    const core = Reflect.get(view, "core") as { requestId?: string; logger?: Logger } | undefined;
    const client = signalled(original(view), { signal: joint.controller.signal, requestId: core?.requestId, logger: core?.logger });
    return load(client).finally(() => {
      if (inFlight.get(key) === joint) inFlight.delete(key);
    });
  });
  const joint = inFlight.get(key);
  const signal = callSignal(view);
  if (!joint || !signal) return promise;
  joint.waiters++;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let forget: () => void = () => {};
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      joint.waiters--;
      forget();
      finish();
    };
    const leave = () =>
      settle(() => {
        if (joint.waiters === 0) joint.controller.abort();
        reject(cancelledByClient());
      });
    if (signal.aborted) return leave();
    forget = onAbort(signal, leave);
    promise.then(
      (value) => settle(() => resolve(value)),
      (error) => settle(() => reject(error)),
    );
  });
}
