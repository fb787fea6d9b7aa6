// The browser tests: a real Chromium (playwright-core, the system's /usr/bin/chromium) against the app
// listening on 127.0.0.1. Separate from `npm test` (they need Chromium): `npm run test:browser`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    reporters: ['default'],
  },
});
