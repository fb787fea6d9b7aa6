// One drill's installation: a private PostgreSQL and Redis, Tolem's ROLE=api and ROLE=worker processes on
// them, a merchant registered through the API, and its webhook pointing at the receiver of this process.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { WebhookReceiver } from './receiver.ts';
import { PrivatePostgres, PrivateRedis } from './services.ts';
import { installationSecrets, TolemProcess } from './tolem.ts';

export interface Merchant {
  token: string;
  testKey: string;
  liveKey: string;
}

export class DrillStack {
  /** the drill's own reads of the store, for counting what was stored */
  readonly db: pg.Pool;

  private constructor(
    readonly dir: string,
    readonly postgres: PrivatePostgres,
    readonly redis: PrivateRedis,
    readonly api: TolemProcess,
    readonly worker: TolemProcess,
    readonly receiver: WebhookReceiver,
    readonly databaseUrl: string,
  ) {
    this.db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // A connection dropped by the drill's own restart of PostgreSQL is replaced at the next query.
    this.db.on('error', () => {});
  }

  /** `env`: more configuration for both processes (the provider's, for the live drill). */
  static async start(name: string, env: Record<string, string> = {}): Promise<DrillStack> {
    const dir = mkdtempSync(path.join(tmpdir(), `tolem-drill-${name}-`));
    // Whatever started is stopped again if the rest fails: a drill never leaves a server behind.
    const started = await Promise.allSettled([
      PrivatePostgres.start(),
      PrivateRedis.start(),
      (async () => {
        const r = new WebhookReceiver();
        await r.start();
        return r;
      })(),
    ]);
    const [postgres, redis, receiver] = started.map((r) => (r.status === 'fulfilled' ? r.value : undefined)) as [
      PrivatePostgres?,
      PrivateRedis?,
      WebhookReceiver?,
    ];
    const failed = started.find((r) => r.status === 'rejected');
    if (failed || !postgres || !redis || !receiver) {
      await Promise.all([postgres?.destroy(), redis?.destroy(), receiver?.close()]);
      rmSync(dir, { recursive: true, force: true });
      throw (failed as PromiseRejectedResult | undefined)?.reason ?? new Error('a drill service did not start');
    }
    const databaseUrl = postgres.url.replace(/\/postgres$/, '/tolem');
    const shared = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, ...installationSecrets(), ...env };
    const api = await TolemProcess.create('api', dir, shared);
    const worker = await TolemProcess.create('worker', dir, shared);
    const stack = new DrillStack(dir, postgres, redis, api, worker, receiver, databaseUrl);
    try {
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query('CREATE DATABASE tolem');
      await admin.end();
      // Side by side, as a deployment starts them: the migrations run once, under their advisory lock.
      await Promise.all([api.start(), worker.start()]);
    } catch (err) {
      await stack.close();
      throw err;
    }
    return stack;
  }

  /** A new shop: its keys and token, and a webhook of `mode` for payment.completed on the receiver. */
  async merchant(mode: 'test' | 'live'): Promise<Merchant> {
    const reg = await fetch(`${this.api.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Drill shop',
        email: `drill-${randomUUID()}@example.kz`,
        password: 'drill password 1',
      }),
    });
    const account = (await reg.json()) as { access_token: string; api_keys: { test: string; live: string } };
    if (reg.status !== 201) throw new Error(`register answered ${reg.status}: ${JSON.stringify(account)}`);
    const hook = await fetch(`${this.api.url}/me/webhooks${mode === 'test' ? '?mode=test' : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${account.access_token}` },
      body: JSON.stringify({ url: this.receiver.url, events: ['payment.completed'] }),
    });
    if (hook.status !== 201) throw new Error(`webhook creation answered ${hook.status}: ${await hook.text()}`);
    return { token: account.access_token, testKey: account.api_keys.test, liveKey: account.api_keys.live };
  }

  /** Processes that exited without being asked to (a crash on the fault). */
  unexpectedExits(): string[] {
    return [...this.api.unexpectedExits, ...this.worker.unexpectedExits];
  }

  logs(): string {
    return `--- api\n${this.api.logTail()}\n--- worker\n${this.worker.logTail()}`;
  }

  async close(): Promise<void> {
    await Promise.all([this.api.stop(), this.worker.stop()]);
    await this.db.end().catch(() => {});
    await Promise.all([this.postgres.destroy(), this.redis.destroy(), this.receiver.close()]);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
