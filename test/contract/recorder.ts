import { checkRequest } from "../../src/clients/openapi/match.js";
import operationsJson from "../../src/clients/openapi/operations.json" with { type: "json" };
import type { OperationIndex } from "../../src/clients/openapi/types.js";
import type { Sandbox } from "../../src/sandbox/index.js";

export const INDEX = operationsJson as unknown as OperationIndex;

export interface ContractRecorder {
  /** Every distinct violation so far, each with one request that showed it. */
  violations(): string[];
  /** The violations since the last take, cleared. */
  take(): string[];
  /** Ids of the operations the requests so far matched. */
  reached(): Set<string>;
  /** Ids of the operations matched since the last call, cleared. */
  takeReached(): Set<string>;
  stop(): void;
}

/**
 * Checks every request a sandbox receives against the vendor's contract as it arrives (see
 * src/clients/openapi/match.ts). Every test harness starts one and fails on close when a request
 * broke the contract, so every tool test is a contract test too.
 */
export function recordContract(sandbox: Sandbox): ContractRecorder {
  const found = new Map<string, string>();
  let fresh: string[] = [];
  const reached = new Set<string>();
  let recent = new Set<string>();
  const stop = sandbox.onUpstreamRequest((request) => {
    const { problems, op } = checkRequest(INDEX.operations, request);
    if (op) {
      reached.add(op.id);
      recent.add(op.id);
    }
    for (const problem of problems) {
      const line = `${problem}\n    (seen in ${request.method} ${request.path}?${Object.keys(request.query).join("&")})`;
      if (!found.has(problem)) found.set(problem, line);
      if (!fresh.includes(line)) fresh.push(line);
    }
  });
  return {
    violations: () => [...found.values()],
    take() {
      const out = fresh;
      fresh = [];
      return out;
    },
    reached: () => new Set(reached),
    takeReached() {
      const out = recent;
      recent = new Set();
      return out;
    },
    stop,
  };
}
