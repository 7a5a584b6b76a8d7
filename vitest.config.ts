import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // One worker per core, not vitest's cores - 1: most files wait on child processes and sockets,
    // so on 2 cores a single worker left one idle (the suite took 366 s serially, 200 s like this).
    maxWorkers: availableParallelism(),
    setupFiles: ["test/setup-clock.ts", "test/setup-index.ts"],
    reporters: ["default"],
  },
});
