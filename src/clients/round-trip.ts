import { subscribe } from "node:diagnostics_channel";
import { clock } from "./limiter.js";

/**
 * When a request most likely reached its upstream, told from its own answer: half the fastest
 * round trip to that origin before its answer began (never before it was sent). Whatever delayed
 * it on the way there (a connection opened for it, a proxy or TLS terminator opening its own, a
 * pool with no free connection, our event loop or the upstream's own queue) delayed its answer as
 * much, so it is counted that much later; a request sent at once on a warm path counts from about
 * half its trip after the send. The fastest trip is timed over connections already open only: one
 * opened for the request adds its setup (which can lie past the socket, unseen) to its way there,
 * and would make the fastest trip, and the estimate of every later one, too early. Until such a
 * trip is known, a request counts from its answer. Assumes the way back takes no less than half
 * the fastest trip; the limiter's window keeps a margin for jitter, and a key that meets a 429
 * counts from its answers for a while (limiter.ts).
 */

/** Connections undici has begun to open, per origin, in this process. */
const opened = new Map<string, number>();
/** The fastest round trip (ms) seen per origin over a connection already open. */
const fastest = new Map<string, number>();
let listening = false;

interface ConnectParams {
  protocol: string;
  host: string;
}

function listen(): void {
  if (listening) return;
  listening = true;
  // Published by every undici client in the process (the bundled one too) before it connects.
  subscribe("undici:client:beforeConnect", (message) => {
    const { protocol, host } = (message as { connectParams: ConnectParams }).connectParams;
    const origin = `${protocol}//${host}`;
    opened.set(origin, (opened.get(origin) ?? 0) + 1);
  });
}

/** Starts timing a request to `origin` sent now; call the result when its answer begins: when it most likely arrived. */
export function timeTrip(origin: string): (answered: number) => number {
  listen();
  const before = opened.get(origin) ?? 0;
  const sent = clock();
  return (answered) => {
    const trip = answered - sent;
    if ((opened.get(origin) ?? 0) === before && trip < (fastest.get(origin) ?? Number.POSITIVE_INFINITY)) fastest.set(origin, trip);
    const least = fastest.get(origin);
    return least === undefined ? answered : Math.max(sent, answered - least / 2);
  };
}
