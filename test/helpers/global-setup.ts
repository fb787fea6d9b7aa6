// Runs once before the test files: prepares the store every test app starts from, so that a test file's
// set-up no longer grows with the migrations or pays for creating a cluster.
// - PGlite (no TEST_DATABASE_URL): one migrated in-memory store, dumped to a file; each test app loads it.
// - PostgreSQL: the database is migrated here once, so each test app's own migrate is a quick check.
// It also builds the workspace packages whose sources changed since their build (the SDK, the CLI, the
// dashboard): the tests use their builds, which must be those of the sources under test.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connect, connectPglite, dumpPgliteDataDir } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** path of the migrated PGlite data-directory dump; absent on PostgreSQL */
    pgliteTemplate?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const built = spawnSync(process.execPath, ['scripts/build-packages.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the workspace packages failed');
  if (process.env.TEST_DATABASE_URL) {
    const db = await connect({ databaseUrl: process.env.TEST_DATABASE_URL, poolMax: 1 });
    await migrate(db);
    await db.close();
    return () => {};
  }
  const db = await connectPglite('memory://');
  await migrate(db);
  const dump = await dumpPgliteDataDir(db);
  await db.close();
  const dir = mkdtempSync(path.join(tmpdir(), 'tolem-test-'));
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
