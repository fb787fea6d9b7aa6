// Prints /openapi.json of the app as built from src/, on a throw-away in-memory store: what a client
// generator reads. Run with the project's tsx: `npx tsx tools/openapi-client/dump-openapi.ts`.
import { loadConfig } from '../../src/config.ts';
import { bootstrap } from '../../src/bootstrap.ts';
import { buildApp } from '../../src/app.ts';

const config = loadConfig({ APP_SECRET: 'openapi-dump', DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
const runtime = await bootstrap(config);
const { app } = await buildApp(runtime.deps, { logger: false });
process.stdout.write((await app.inject({ method: 'GET', url: '/openapi.json' })).body);
await app.close();
await runtime.close();
