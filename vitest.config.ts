import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One fast-check seed per run, printed on failure (test/setup/fast-check-seed.ts).
    setupFiles: ['test/setup/fast-check-seed.ts'],
    // Generous, for a loaded machine: start-up waits give up first (test/wait.ts, 100 s) and print why.
    testTimeout: 120_000,
    // Two test files at a time (vitest's default is one fewer than the cores: 1 here). Many files
    // wait on child processes (servers, PostgreSQL, kill -9 runs) and leave a core idle.
    maxWorkers: 2,
    hookTimeout: 180_000,
  },
});
