/** What the slow-connect upstream (test/security/upstreams/slow-connect.ts) sends first. */
export interface SlowConnectInfo {
  urls: { messagingBaseUrl: string; posBaseUrl: string };
  credentials: { userToken: string };
  pages: string[];
}

/** The most arrivals any window of `windowMs` holds. */
export function busiestWindow(times: number[], windowMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/**
 * The arrivals the upstream served, by its own rule replayed: one is served when fewer than `limit`
 * were served in the `windowMs` before it; the rest it refused (429), to be tried again.
 */
export function servedOf(times: number[], limit: number, windowMs = 1000): number[] {
  const served: number[] = [];
  for (const at of [...times].sort((a, b) => a - b)) if (served.filter((t) => t > at - windowMs).length < limit) served.push(at);
  return served;
}
