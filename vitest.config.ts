import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // One worker more than the cores, not vitest's cores - 1: most files wait on child processes,
    // sockets and the sandbox's rate limit, so on 2 cores one worker left one idle (the suite took
    // 366 s serially) and two still left time idle (356 s on 2026-11-29; three workers: 322 s).
    maxWorkers: availableParallelism() + 1,
    setupFiles: ["test/setup-clock.ts", "test/setup-index.ts"],
    reporters: ["default"],
  },
});
