// The fault drills (issue 42; docs/operations.md, Fault drills): each starts its own PostgreSQL and Redis
// and runs Tolem as real processes under a payment load while something fails. Not part of `npm test`; run by .ci/run:
//   npx vitest run -c test/drills/vitest.config.ts
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/drills/**/*.drill.ts'],
    globalSetup: ['test/drills/global-setup.ts'],
    // Each drill bounds itself (its fault, its load and its wait for the backlog); these are the outer
    // bounds, kept apart from the figures.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One at a time: a drill measures recovery, and another drill's processes beside it would be measured too.
    maxWorkers: 1,
    fileParallelism: false,
    reporters: ['default'],
  },
});
