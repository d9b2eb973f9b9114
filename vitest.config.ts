import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One fast-check seed per run, printed on failure (test/setup/fast-check-seed.ts).
    setupFiles: ['test/setup/fast-check-seed.ts'],
    // Generous, for a loaded machine: start-up waits give up first (test/wait.ts, 100 s) and print why.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
