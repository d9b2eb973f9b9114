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
    // Test files of a worker share its module cache instead of importing src again for each file
    // (vitest's default isolates every file): the same 1,544 tests took 297 s of CPU instead of
    // 485 s, 289 s instead of 543 s of wall time, side by side at load 6-8 (2026-11-26; import
    // time 22 s instead of 200 s). Safe because no test changes shared state: none mocks a
    // module, stubs a global or writes process.env, and the few module-level objects in src are
    // scratch buffers and caches keyed by object (WeakMap), which answer the same in any order.
    isolate: false,
    hookTimeout: 180_000,
  },
});
