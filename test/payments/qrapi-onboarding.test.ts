// The official-API mechanism of onboarding (decisions 19, 24) through HTTP against the emulator: start with
// the scheme, the BIN and the certificate -> trade points -> verify with one -> connected, a device
// registered, live QRs work; the refusals; and health checks that flip session_alive.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, callAs, errorOf, idem, key, type Merchant, newMerchant } from '../helpers/factories.ts';
import { BIN, qrapiWorld, type QrapiWorld } from '../helpers/qrapi.ts';
import { makeClientPfx } from '../../emulator/certificates.ts';

let w: QrapiWorld;
beforeAll(async () => {
  w = await qrapiWorld();
}, 30_000);
afterAll(() => w?.close());

const as = callAs(() => w.t.app);
const r3 = () => ({
  scheme: 'r3',
  certificate_pfx_base64: readFileSync(w.emu.clientPfx).toString('base64'),
  password: w.emu.clientPassword,
});

describe('official-API onboarding', () => {
  it('start -> trade points -> verify -> connected with a device; live QR 201', async () => {
    const m = await newMerchant(w.t.app);
    const s = await as(m, 'POST', '/onboarding/provider/start', {
      org_bin: BIN,
      display_name: 'Shop',
      credentials: r3(),
    });
    expect(s.statusCode, s.body).toBe(200);
    expect(s.json()).toEqual({
      state: 'trade_point_required',
      next_step: 'choose_trade_point',
      trade_points: [
        { id: 1, name: 'Test point 1' },
        { id: 2, name: 'Test point 2' },
      ],
    });
    expect((await as(m, 'GET', '/onboarding/provider/status')).json()).toMatchObject({
      state: 'trade_point_required',
      next_step: 'choose_trade_point',
      mechanism: 'qrapi',
      trade_points: s.json().trade_points,
    });
    expect((await as(m, 'POST', '/onboarding/provider/resend')).json().trade_points).toHaveLength(2);
    const v = await as(m, 'POST', '/onboarding/provider/verify', { trade_point_id: 2 });
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json()).toMatchObject({ state: 'connected', mode: 'live' });
    const acc = (await as(m, 'GET', `/me/provider/accounts/${v.json().account_id}`)).json();
    expect(acc).toMatchObject({
      driver: 'qrapi',
      scheme: 'r3',
      org_bin: BIN,
      trade_point: { id: 2, name: 'Test point 2' },
      is_default: true,
      session_alive: true,
    });
    expect(new Date(acc.certificate_expires_at).getTime()).toBeGreaterThan(Date.now());
    const device = w.emu.state.requests.filter((r) => r.path.endsWith('device/register'));
    expect(device.length).toBeGreaterThan(0);
    const installation = (await w.t.runtime.deps.db.query<{ id: string }>('SELECT id FROM installation')).rows[0].id;
    expect(
      [...w.emu.state.devices.values()].some(
        (d) => d.DeviceId === `tolem-${installation}-${acc.id}` && d.TradePointId === 2,
      ),
    ).toBe(true);
    const qr = await w.t.app.inject({
      method: 'POST',
      url: '/v2/qr',
      headers: { ...key(m.liveKey), ...idem() },
      payload: { amount: 700 },
    });
    expect(qr.statusCode, qr.body).toBe(201);
    // The credentials live sealed on the account only; nothing readable in the onboarding row.
    const row = await w.t.runtime.deps.db.query<{ credentials_sealed: string | null }>(
      `SELECT credentials_sealed FROM onboarding WHERE account_id = $1`,
      [acc.id],
    );
    expect(row.rows[0].credentials_sealed).toBeNull();
    const sealed = (
      await w.t.runtime.deps.db.query<{ c: string }>(
        'SELECT credentials_sealed AS c FROM provider_accounts WHERE id = $1',
        [acc.id],
      )
    ).rows[0].c;
    expect(sealed).not.toContain(w.emu.clientPassword);
  });

  it(
    'refuses: a bad BIN, a wrong password, an expired certificate (400); ' +
      'a trade point not offered; verify before start',
    async () => {
      const m = await newMerchant(w.t.app);
      expect(
        errorOf(await as(m, 'POST', '/onboarding/provider/start', { org_bin: '123', credentials: r3() })).param,
      ).toBe('org_bin');
      expect(
        errorOf(
          await as(m, 'POST', '/onboarding/provider/start', {
            org_bin: BIN,
            credentials: { ...r3(), password: 'wrong' },
          }),
        ).message,
      ).toMatch(/password/);
      const expired = makeClientPfx(w.emu.caPem, readFileSync(w.emu.caKeyFile, 'utf8'), 'pw', {
        notBefore: new Date(Date.now() - 2 * 86400_000),
        notAfter: new Date(Date.now() - 86400_000),
      });
      const old = await as(m, 'POST', '/onboarding/provider/start', {
        org_bin: BIN,
        credentials: { scheme: 'r3', certificate_pfx_base64: expired.toString('base64'), password: 'pw' },
      });
      expect(old.statusCode).toBe(400);
      expect(errorOf(old).message).toMatch(/certificate expired/);
      expect(errorOf(await as(m, 'POST', '/onboarding/provider/verify', { trade_point_id: 1 })).code).toBe(
        'onboarding_state',
      );
      expect(errorOf(await as(m, 'POST', '/onboarding/provider/start', { org_bin: BIN })).param).toBe('credentials');
      await as(m, 'POST', '/onboarding/provider/start', { org_bin: BIN, credentials: r3() });
      expect(errorOf(await as(m, 'POST', '/onboarding/provider/verify', { trade_point_id: 9 })).param).toBe(
        'trade_point_id',
      );
      expect(errorOf(await as(m, 'POST', '/onboarding/provider/verify', { code: '000000' })).param).toBe(
        'trade_point_id',
      );
    },
  );

  it(
    'health check: ping, certificate, trade point, device; a refusing ' +
      'provider flips session_alive false with a notification, and back',
    async () => {
      const m: Merchant & { accountId: number } = await w.liveMerchant();
      const ok = await as(m, 'POST', `/me/provider/accounts/${m.accountId}/health-check`);
      expect(ok.json()).toMatchObject({ ok: true, session_alive: true });
      expect(ok.json().checks.every((c: { ok: boolean }) => c.ok)).toBe(true);
      w.faults([{ path: 'health/ping', kind: 'code', code: -10000 }]);
      const bad = await as(m, 'POST', `/me/provider/accounts/${m.accountId}/health-check`);
      expect(bad.json()).toMatchObject({ ok: false, session_alive: false });
      expect(bad.json().checks.find((c: { name: string }) => c.name === 'ping').ok).toBe(false);
      expect((await as(m, 'GET', '/me')).json().session_alive).toBe(false);
      const notes = (await as(m, 'GET', '/me/notifications')).json().data;
      expect(notes.some((n: { type: string }) => n.type === 'provider.session_expired')).toBe(true);
      w.faults([]);
      expect((await as(m, 'POST', `/me/provider/accounts/${m.accountId}/health-check`)).json().session_alive).toBe(
        true,
      );
    },
  );
});

describe('deleting a qrapi account', () => {
  it(
    'wipes its credentials and deletes its device at the provider once ' +
      'nothing waits on it; a waiting payment defers it to the job',
    async () => {
      const { wipeReleasedCredentials } = await import('../../src/domain/payments/provider-account-settings.ts');
      const m = await w.liveMerchant();
      const sealed = async (id: number) =>
        (
          await w.t.runtime.deps.db.query<{ c: string | null; d: string | null }>(
            'SELECT credentials_sealed AS c, device_token AS d FROM provider_accounts WHERE id = $1',
            [id],
          )
        ).rows[0];
      // A second account to delete (the default goes last).
      await as(m, 'POST', '/onboarding/provider/start', {
        org_bin: BIN,
        credentials: r3(),
        force: true,
        display_name: 'Second',
      });
      const second = (await as(m, 'POST', '/onboarding/provider/verify', { trade_point_id: 2 })).json().account_id;
      const token = (await sealed(second)).d!;
      // A QR still waiting through it keeps the credentials until it is settled.
      const qr = await w.t.app.inject({
        method: 'POST',
        url: '/v2/qr',
        headers: { ...key(m.liveKey), ...idem(), 'x-provider-account': String(second) },
        payload: { amount: 500 },
      });
      expect(qr.statusCode, qr.body).toBe(201);
      expect((await as(m, 'DELETE', `/me/provider/accounts/${second}`)).statusCode).toBe(204);
      expect((await sealed(second)).c).not.toBeNull();
      await w.t.runtime.deps.db.query(`UPDATE operations SET status = 'expired' WHERE id = $1`, [
        qr.json().operation_id,
      ]);
      expect(await wipeReleasedCredentials(w.t.runtime.deps)).toBeGreaterThanOrEqual(1);
      expect(await sealed(second)).toEqual({ c: null, d: null });
      expect(w.emu.state.requests.some((r) => r.path.endsWith('device/delete'))).toBe(true);
      expect([...w.emu.state.devices.values()].find((d) => d.DeviceToken === token)?.active ?? false).toBe(false);
    },
  );
});

describe('the platform client through the official API', () => {
  it(
    'admin connect-platform lists trade points, then connects; a plan ' +
      'QR is then paid at the provider and buys the plan',
    async () => {
      const { connectPlatform } = await import('../../src/cli/connect-platform.ts');
      const { pollWatchedQrs } = await import('../../src/domain/payments/watch.ts');
      const { mkdtempSync, writeFileSync } = await import('node:fs');
      const path = await import('node:path');
      const os = await import('node:os');
      const buyer = await newMerchant(w.t.app);
      const before = await w.t.app.inject({
        method: 'POST',
        url: '/v1/subscription/pay',
        headers: { ...bearer(buyer), ...idem() },
        payload: { plan: 'starter' },
      });
      expect(before.statusCode).toBe(409);
      expect(errorOf(before).code).toBe('provider_not_connected');

      const pfxFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'platform-')), 'op.p12');
      writeFileSync(pfxFile, readFileSync(w.emu.clientPfx));
      const args = ['--bin', BIN, '--pfx', pfxFile, '--password', w.emu.clientPassword];
      const list = await connectPlatform(w.t.runtime.deps, args);
      expect(list.exitCode).toBe(2);
      expect(list.message).toContain('Test point 1');
      const done = await connectPlatform(w.t.runtime.deps, [...args, '--trade-point', '1']);
      expect(done.exitCode, done.message).toBe(0);
      expect((await connectPlatform(w.t.runtime.deps, ['--pfx', pfxFile])).exitCode).toBe(2);

      const q = await w.t.app.inject({
        method: 'POST',
        url: '/v1/subscription/pay',
        headers: { ...bearer(buyer), ...idem() },
        payload: { plan: 'starter' },
      });
      expect(q.statusCode, q.body).toBe(201);
      const opId = q.json().operation_id;
      await w.customer('scan', opId);
      await w.customer('confirm', opId);
      await w.t.runtime.deps.db.query('UPDATE operations SET next_poll_at = now() WHERE id = $1', [opId]);
      await pollWatchedQrs(w.t.runtime.deps, { batch: 100, perAccount: 100 });
      // Bought by the watcher's notice alone, before anyone checks.
      expect((await as(buyer, 'GET', '/me')).json()).toMatchObject({ plan: 'starter', plan_active: true });
      expect((await as(buyer, 'GET', `/v1/subscription/check/${opId}`)).json()).toMatchObject({
        activated: true,
        status: 'paid',
      });
    },
  );
});

describe('APP_SECRET rotation', () => {
  it('reseal re-seals provider credentials; the account keeps working', async () => {
    const { resealProviderCredentials } = await import('../../src/domain/webhooks/reseal.ts');
    const { makeSealer } = await import('../../src/secrets.ts');
    const m = await w.liveMerchant();
    const deps = w.t.runtime.deps;
    const read = async () =>
      (
        await deps.db.query<{ c: string }>('SELECT credentials_sealed AS c FROM provider_accounts WHERE id = $1', [
          m.accountId,
        ])
      ).rows[0].c;
    const before = await read();
    // A rotation: the old key becomes a previous one.
    const rotated = makeSealer('rotated-app-secret'.padEnd(48, 'r'), [deps.config.appSecret ?? 'test-app-secret']);
    expect(rotated.isCurrent(before)).toBe(false);
    expect(await resealProviderCredentials(deps.db, rotated, m.clientId)).toBe(1);
    const after = await read();
    expect(rotated.isCurrent(after)).toBe(true);
    expect(rotated.open(after)).toBe(deps.secrets.sealer.open(before));
    expect(await resealProviderCredentials(deps.db, rotated, m.clientId)).toBe(0);
    // Back to the store's own key, as the app runs with it.
    await resealProviderCredentials(
      deps.db,
      makeSealer(deps.config.appSecret ?? 'test-app-secret', ['rotated-app-secret'.padEnd(48, 'r')]),
      m.clientId,
    );
  });
});
