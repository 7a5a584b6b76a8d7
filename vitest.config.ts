import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Two workers more than the cores, not vitest's cores - 1: most files wait on child processes,
    // sockets, timers and the sandbox's rate limit, so on 2 cores one worker left one idle (the
    // suite took 366 s serially), three workers 367 s and four 298 s on 2026-12-06.
    maxWorkers: availableParallelism() + 2,
    setupFiles: ["test/setup-clock.ts", "test/setup-index.ts"],
    reporters: ["default"],
  },
});
