import type { OperationIndex } from "./types.js";

export type * from "./types.js";

let loaded: Promise<OperationIndex> | undefined;

/**
 * The operation index, loaded with its first use: it is 200 KB of JSON that only the `api`
 * toolset reads, so it stays out of start-up (the bundle puts it in a chunk of its own).
 */
export function loadOperations(): Promise<OperationIndex> {
  loaded ??= import("./operations.json", { with: { type: "json" } }).then((m) => (m.default ?? m) as unknown as OperationIndex);
  return loaded;
}
