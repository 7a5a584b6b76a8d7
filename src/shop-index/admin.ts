import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

// `pancake-mcp index info|clear`: what the shop index keeps on this machine, and forgetting it.

/**
 * The index's own files: its database (`shop-index.sqlite`, with SQLite's journal files beside it),
 * each tenant's list of what it keeps (`kept-<hash>.json`, kept.ts), the gzip copies earlier
 * versions kept (`<kind>-<hash>.json.gz`), and temporary ones a write left behind.
 */
const OWN = /^(shop-index\.sqlite(-wal|-shm)?|(orders|conversations)-[0-9a-f]{32}\.json\.gz|kept-[0-9a-f]{32}\.json)(\.\d+\.tmp)?$/;

interface IndexFile {
  name: string;
  bytes: number;
  modified: Date;
}

async function files(dir: string): Promise<IndexFile[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  return Promise.all(
    names
      .filter((name) => OWN.test(name))
      .map(async (name) => {
        const info = await stat(join(dir, name));
        return { name, bytes: info.size, modified: info.mtime };
      }),
  );
}

export async function indexInfo(dir: string): Promise<string> {
  const found = await files(dir);
  const total = found.reduce((sum, f) => sum + f.bytes, 0);
  return [
    `shop index folder: ${dir}`,
    ...found.map((f) => `  ${f.name}  ${(f.bytes / 1024).toFixed(0)} KiB  written ${f.modified.toISOString()}`),
    `${found.length} index file(s), ${(total / 1024 / 1024).toFixed(1)} MiB`,
  ].join("\n");
}

/** Removes the index's files (nothing else in the folder); says what it removed. */
export async function clearIndex(dir: string): Promise<string> {
  const found = await files(dir);
  await Promise.all(found.map((f) => rm(join(dir, f.name), { force: true })));
  return `removed ${found.length} shop index file(s) from ${dir}; the next question reads the shop again`;
}

/** The gzip copies earlier versions kept (the database replaced them): removed once it is opened. */
export async function removeLegacyCopies(dir: string): Promise<void> {
  const legacy = (await files(dir)).filter((f) => f.name.endsWith(".json.gz"));
  await Promise.all(legacy.map((f) => rm(join(dir, f.name), { force: true })));
}
