import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Which pages and shops a tenant's index keeps, so that a server's start brings exactly those up
 * to date without reading the page or shop list first (a start reads nothing it does not need).
 * On disk, one small file per tenant beside the indexes, named by a hash of its credentials like
 * them (ids only, never a token); with shared state, a set in Redis (src/state/redis.ts).
 */
export interface KeptList {
  conversations: string[];
  orders: string[];
}

export interface KeptRegistry {
  read(): Promise<KeptList>;
  add(kind: keyof KeptList, id: string): void;
}

/** The registry in the index folder: read once, written (atomically) when an id is added. */
export function fileKept(dir: string, tenant: string): KeptRegistry {
  const path = join(dir, `kept-${tenant}.json`);
  let list: Promise<KeptList> | undefined;
  let writing = Promise.resolve();
  const read = () =>
    (list ??= readFile(path, "utf8")
      .then((text) => JSON.parse(text) as KeptList)
      .then((parsed) => ({ conversations: strings(parsed.conversations), orders: strings(parsed.orders) }))
      .catch(() => ({ conversations: [], orders: [] })));
  return {
    read,
    add(kind, id) {
      void read().then((kept) => {
        if (kept[kind].includes(id)) return;
        kept[kind].push(id);
        writing = writing.then(async () => {
          await mkdir(dir, { recursive: true, mode: 0o700 });
          const temporary = `${path}.${process.pid}.tmp`;
          await writeFile(temporary, JSON.stringify(kept), { mode: 0o600 });
          await rename(temporary, path);
        }).catch(() => {});
      });
    },
  };
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string").slice(0, 1_000) : []);
