import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/browser/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files of one worker share the loaded modules instead of importing the app anew each (that was
    // a third of the suite's time). Files stay independent as before: each builds its own app and store
    // and makes fresh merchants; module-level state in src/ is caches keyed by what they cache.
    isolate: false,
    maxWorkers: 2,
    reporters: ['default'],
  },
});
