// Nothing that works as a credential is readable at rest (issue 38). After a team invite, a partner's
// invite, a withdrawal code and an onboarding code went out (and an organization's IBAN was saved), a
// dump of the PostgreSQL database (pg_dump) or a copy of the embedded store's DATA_DIR (its files' bytes)
// holds none of them in clear, while the channels got each one. The store is this file's own (a fresh
// database, or a DATA_DIR on disk), so the search sees only what this file wrote; on the embedded store
// the secrets live in SECRETS_FILE outside DATA_DIR, so the copy holds no APP_SECRET either.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { bootstrap, type Runtime } from '../../src/bootstrap.ts';
import { buildApp } from '../../src/app.ts';
import type { Channel, ChannelDriver, OutboundMessage } from '../../src/channels/types.ts';
import { sendDueMessages } from '../../src/domain/channels/outbox.ts';
import { post } from '../../src/domain/partners/ledger.ts';
import { sha256Hex } from '../../src/crypto.ts';
import { HIGH_LIMITS } from '../helpers/app.ts';
import { bearer, idem, newMerchant, uniqueEmail } from '../helpers/factories.ts';
import { TEST_JWT_PRIVATE_KEY } from '../helpers/test-jwt-key.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const tmp = (tag: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `tolem-${tag}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

async function freshDatabase(): Promise<string> {
  const name = `tolem_at_rest_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a.end();
  });
  const u = new URL(adminUrl!);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A valid Kazakh IBAN of this run (mod 97), so the search cannot meet another's. */
function randomIban(): string {
  const bban = `125KZT${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
  const digits = `${bban}KZ00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return `KZ${String(98 - rest).padStart(2, '0')}${bban}`;
}

/** Every file under a folder, with its path. */
function filesUnder(dir: string): { file: string; bytes: Buffer }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .map((file) => ({ file, bytes: readFileSync(file) }));
}

/**
 * Where `needle` occurs in `bytes`. A short code counts only as a number of its own (no letter, digit or
 * decimal point beside it): six digits can otherwise turn up inside a hash, an id or a timestamp's
 * microseconds by chance, which is no copy of the code.
 */
function occurrences(bytes: Buffer, needle: string): number[] {
  const whole = needle.length < 12;
  const found: number[] = [];
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) {
    const near = (i: number) => (i >= 0 && i < bytes.length ? String.fromCharCode(bytes[i]) : '');
    if (whole && (/[0-9A-Za-z.]/.test(near(at - 1)) || /[0-9A-Za-z]/.test(near(at + needle.length)))) continue;
    found.push(at);
  }
  return found;
}

const sent: (OutboundMessage & { channel: Channel })[] = [];
const capture = (channel: Channel): ChannelDriver => ({
  name: 'capture',
  send: async (m) => void sent.push({ ...m, channel }),
});

let runtime: Runtime;
let dataDir: string;
let databaseUrl: string;
let secretsFile: string;
/** the withdrawal's row while its code waited for confirmation */
let withdrawalRow: string;
/** what the test must not find at rest, by name */
const wanted: Record<string, string> = {};

beforeAll(async () => {
  dataDir = tmp('at-rest-data');
  secretsFile = path.join(tmp('at-rest-secrets'), 'secrets.json');
  databaseUrl = adminUrl ? await freshDatabase() : '';
  const config = loadConfig(
    // APP_SECRET is generated and kept in SECRETS_FILE: the copy of DATA_DIR must not hold it either.
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SECRETS_FILE: secretsFile,
      JWT_PRIVATE_KEY: TEST_JWT_PRIVATE_KEY,
      REDIS_URL: '',
      PARTNER_AUTO_APPROVE: 'true',
    },
    { rateLimits: HIGH_LIMITS, logLevel: 'silent' },
  );
  runtime = await bootstrap(config, { logLine: () => {} });
  Object.assign(runtime.deps.channels, {
    email: capture('email'),
    messenger: capture('messenger'),
    sms: capture('sms'),
  });
  const { app } = await buildApp(runtime.deps, { logger: false });
  const db = runtime.deps.db;
  try {
    const owner = await newMerchant(app);
    const as = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object, headers: object = {}) =>
      app.inject({ method, url, headers: { ...bearer(owner), ...headers }, ...(payload ? { payload } : {}) });

    const team = await as('POST', '/me/team/invite', { email: uniqueEmail('team'), role: 'viewer' });
    expect(team.statusCode, team.body).toBe(201);
    wanted['team invite token'] = team.json().invite_token;

    expect((await as('POST', '/partner/auth/register', { company_name: 'At Rest Agency' })).statusCode).toBe(201);
    const invite = await as('POST', '/partner/clients/invite', { email: uniqueEmail('client') });
    expect(invite.statusCode, invite.body).toBe(201);
    wanted['partner invite token'] = invite.json().invite_token;

    // A withdrawal: bank details, a balance, a bound messenger; its code goes by messenger.
    const iban = randomIban();
    const bank = await as('PATCH', '/partner/settings/bank', {
      recipient_name: 'ТОО Агентство',
      bin: '990140001233',
      iban,
      bik: 'KCJBKZKX',
      bank_name: 'Bank',
      kbe: '17',
    });
    expect(bank.statusCode, bank.body).toBe(200);
    wanted['partner IBAN'] = iban;
    const partnerId = (await as('GET', '/partner/me')).json().id;
    await db.tx((tx) =>
      post(tx, partnerId, { type: 'adjustment', amount: 30000, available: 30000, pending: 0, ref: 'test' }),
    );
    await db.query('UPDATE users SET messenger_chat_id = $2 WHERE email = $1', [owner.email, '424242']);
    const w = await as('POST', '/partner/withdrawals', { amount: 30000 }, idem());
    expect(w.statusCode, w.body).toBe(202);

    const start = await as('POST', '/onboarding/provider/start', { phone: '+77015550177' });
    expect(start.statusCode, start.body).toBe(200);

    const orgIban = randomIban();
    expect(
      (
        await as('PUT', '/me/organization', {
          legal_name: 'ТОО Ромашка',
          bank: { iban: orgIban, bik: 'KCJBKZKX', bank_name: 'Bank' },
        })
      ).statusCode,
    ).toBe(200);
    wanted['organization IBAN'] = orgIban;

    while ((await sendDueMessages(runtime.deps)) > 0);
    const code = (purpose: Channel) => /\b(\d{6})\b/.exec(sent.find((m) => m.channel === purpose)!.body)![1];
    wanted['withdrawal code'] = code('messenger');
    wanted['onboarding code'] = code('sms');
    // Six digits' SHA-256 gives the code back in a million tries: no better than the code itself.
    wanted["withdrawal code's SHA-256"] = sha256Hex(wanted['withdrawal code']);
    withdrawalRow = JSON.stringify((await db.query('SELECT * FROM withdrawals WHERE id = $1', [w.json().id])).rows[0]);
    // The codes the channels carried are the real ones.
    const confirmed = await as('POST', `/partner/withdrawals/${w.json().id}/confirm`, {
      code: wanted['withdrawal code'],
    });
    expect(confirmed.json()).toMatchObject({ status: 'processing' });
    expect((await as('POST', '/onboarding/provider/verify', { code: wanted['onboarding code'] })).json()).toMatchObject(
      { state: 'connected' },
    );
    for (const m of sent) wanted[`the ${m.channel} message as sent`] = m.body;
    wanted['app secret'] = runtime.deps.secrets.appSecret;
  } finally {
    await app.close();
    await runtime.close();
  }
}, 120_000);

describe('after invites, a withdrawal and an onboarding code were sent', () => {
  it('the channels got every token and code in clear', () => {
    const bodies = sent.map((m) => m.body).join('\n');
    for (const name of ['team invite token', 'partner invite token']) expect(bodies, name).toContain(wanted[name]);
    expect(sent.map((m) => m.channel).sort()).toEqual(['email', 'email', 'messenger', 'sms']);
  });

  it('the withdrawal waiting for its code kept neither the code nor its hash', () => {
    expect(withdrawalRow).not.toContain(wanted['withdrawal code']);
    expect(withdrawalRow).not.toContain(wanted["withdrawal code's SHA-256"]);
  });

  it.runIf(adminUrl)('a pg_dump of the database holds none of them in clear', async () => {
    const { stdout } = await promisify(execFile)('pg_dump', ['--dbname', databaseUrl], { maxBuffer: 1 << 30 });
    const dump = Buffer.from(stdout);
    expect(dump.length).toBeGreaterThan(10_000);
    expect(occurrences(dump, 'At Rest Agency').length, 'the search finds what is there').toBeGreaterThan(0);
    const leaks = Object.entries(wanted)
      .filter(([, v]) => occurrences(dump, v).length)
      .map(([k]) => k);
    expect(leaks).toEqual([]);
  });

  it.skipIf(Boolean(adminUrl))(
    'a copy of DATA_DIR holds none of them in clear, nor the secrets that would open the sealed ones',
    () => {
      const files = filesUnder(dataDir);
      expect(
        files.some((f) => occurrences(f.bytes, 'At Rest Agency').length),
        'the search finds what is there',
      ).toBe(true);
      const leaks = Object.entries(wanted).flatMap(([k, v]) =>
        files.filter((f) => occurrences(f.bytes, v).length).map((f) => `${k} in ${path.relative(dataDir, f.file)}`),
      );
      expect(leaks).toEqual([]);
      expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
      expect(JSON.parse(readFileSync(secretsFile, 'utf8')).app_secret).toBe(wanted['app secret']);
    },
  );
});
