// The backup file's format (src/cli/backup-archive.ts, src/cli/tar.ts): what is packed unpacks the same,
// standard tar reads it, and every kind of damage is refused with a reason before anything is written.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BackupFileError, packBackup, unpackBackup, type ManifestFields } from '../../src/cli/backup-archive.ts';
import { readTar, writeTar, type TarEntry } from '../../src/cli/tar.ts';

const fields: ManifestFields = {
  created_at: '2026-11-27T10:00:00.000Z',
  taken_from: 'running',
  pg_version: '17',
  migration: 24,
  app_secret_key_id: 'abcd1234',
  counts: { clients: 2, operations: 7 },
};
const file = (name: string, text: string): TarEntry => ({
  name,
  type: 'file',
  mode: 0o600,
  data: Buffer.from(text),
});
const dir = (name: string): TarEntry => ({ name, type: 'dir', mode: 0o700, data: new Uint8Array(0) });
// A page-sized file with content throughout, so that damage anywhere in the middle lands in data.
const page = Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919) % 251));
const data = [
  file('PG_VERSION', '17\n'),
  dir('base'),
  dir('base/5'),
  { ...file('base/5/1259', ''), data: page },
  dir('pg_tblspc'),
  file(`global/${'d'.repeat(60)}/${'f'.repeat(60)}`, 'a name longer than the 100 bytes of a tar name field'),
];
const secrets = '{\n  "app_secret": "s3cret"\n}\n';

/** The archive's tar with `edit` applied, gzip'd again: damage that gzip's own check cannot see. */
async function edited(edit: (entries: TarEntry[]) => TarEntry[]): Promise<Uint8Array> {
  const entries = readTar(gunzipSync(await packBackup(fields, data, secrets)));
  return gzipSync(writeTar(edit(entries)));
}

async function refusal(bytes: Uint8Array): Promise<string> {
  const err = await unpackBackup(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BackupFileError);
  return (err as Error).message;
}

describe('a backup file', () => {
  it('unpacks to what was packed, and standard tar lists it with the secrets owner-only', async () => {
    const bytes = await packBackup(fields, data, secrets);
    const b = await unpackBackup(bytes);
    expect(b.secrets).toBe(secrets);
    expect(b.data.map((e) => [e.name, e.type, Buffer.from(e.data).toString('hex')])).toEqual(
      data.map((e) => [e.name, e.type, Buffer.from(e.data).toString('hex')]),
    );
    expect(b.manifest).toMatchObject({ format: 'tolem-backup', version: 1, secrets: 'included', ...fields });
    expect(Object.keys(b.manifest.files)).toContain('secrets.json');

    const tmp = mkdtempSync(path.join(tmpdir(), 'tolem-tar-'));
    try {
      writeFileSync(path.join(tmp, 'b.tar.gz'), bytes);
      const listing = execFileSync('tar', ['tzvf', path.join(tmp, 'b.tar.gz')], { encoding: 'utf8' });
      expect(listing).toMatch(/^-rw------- .* tolem-backup\.json$/m);
      expect(listing).toMatch(/^-rw------- .* secrets\.json$/m);
      expect(listing).toMatch(/^drwx------ .* pgdata\/pg_tblspc\/?$/m);
      expect(listing).toContain(`pgdata/global/${'d'.repeat(60)}/${'f'.repeat(60)}`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('says whether the secrets were left out or there were none', async () => {
    expect((await unpackBackup(await packBackup({ ...fields, secretsLeftOut: true }, data))).manifest.secrets).toBe(
      'left out',
    );
    const none = await unpackBackup(await packBackup(fields, data));
    expect(none.manifest.secrets).toBe('none');
    expect(none.secrets).toBeUndefined();
  });

  it('refuses bytes changed anywhere, a cut, and what is not a backup', async () => {
    const bytes = await packBackup(fields, data, secrets);
    // Runs of bytes: one flipped bit in a run of zeros can decode to the same bytes, an intact content.
    for (const at of [0.1, 0.3, 0.5, 0.7, 0.9]) {
      const bad = Buffer.from(bytes);
      bad.fill(0xa5, Math.floor(bad.length * at), Math.floor(bad.length * at) + 32);
      expect(await refusal(bad)).toMatch(/damaged|not a readable backup|not a Tolem backup|does not match/);
    }
    expect(await refusal(bytes.subarray(0, bytes.length - 10))).toMatch(/not a readable backup.*cut short/);
    expect(await refusal(Buffer.from('hello, not a backup\n'))).toMatch(/not a readable backup/);
    expect(await refusal(gzipSync(Buffer.from("plain text, gzip'd")))).toMatch(/damaged archive/);
    expect(await refusal(gzipSync(writeTar([file('README', 'hi')])))).toMatch(/does not start with tolem-backup\.json/);
  });

  it('refuses a member whose bytes, presence or name do not match the manifest', async () => {
    const changed = await edited((es) =>
      es.map((e) => (e.name === 'pgdata/PG_VERSION' ? { ...e, data: Buffer.from('16\n') } : e)),
    );
    expect(await refusal(changed)).toBe('member pgdata/PG_VERSION does not match its SHA-256');
    const missing = await edited((es) => es.filter((e) => e.name !== 'pgdata/base/5/1259'));
    expect(await refusal(missing)).toBe('members missing: pgdata/base/5/1259');
    const extra = await edited((es) => [...es, file('pgdata/extra', 'x')]);
    expect(await refusal(extra)).toBe('member pgdata/extra is not in the manifest');
    for (const name of ['../etc/passwd', '/etc/passwd', 'pgdata/../../x', 'pgdata/./x']) {
      const escaping = await edited((es) => [...es, file(name, 'x')]);
      expect(await refusal(escaping)).toBe(`member name not allowed: ${JSON.stringify(name)}`);
    }
    const noSecrets = await edited((es) => es.filter((e) => e.name !== 'secrets.json'));
    expect(await refusal(noSecrets)).toBe('members missing: secrets.json');
  });

  it('refuses a manifest it cannot trust', async () => {
    const withManifest = (text: string) =>
      edited((es) => es.map((e) => (e.name === 'tolem-backup.json' ? { ...e, data: Buffer.from(text) } : e)));
    expect(await refusal(await withManifest('{'))).toBe('tolem-backup.json is not JSON');
    expect(await refusal(await withManifest('{"format":"other"}'))).toBe(
      'tolem-backup.json is not a Tolem backup manifest',
    );
    expect(await refusal(await withManifest('{"format":"tolem-backup","version":2}'))).toBe(
      'backup format version 2: this build reads version 1',
    );
    expect(await refusal(await withManifest('{"format":"tolem-backup","version":1}'))).toBe(
      'tolem-backup.json lacks fields this build needs',
    );
  });
});

describe('tar', () => {
  it('refuses a header whose checksum does not add up, a cut member, and links', () => {
    const tar = writeTar([file('a', 'x'.repeat(1000))]);
    const bad = Buffer.from(tar);
    bad[10] ^= 1; // inside the name, covered by the checksum
    expect(() => readTar(bad)).toThrow(/header checksum mismatch at byte 0/);
    expect(() => readTar(tar.subarray(0, 900))).toThrow(/member a is cut short/);
    expect(() => readTar(tar.subarray(0, 100))).toThrow(/ends inside a header/);
    const link = Buffer.from(tar);
    link[156] = '2'.charCodeAt(0);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : link[i];
    link.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    expect(() => readTar(link)).toThrow(/type "2": only files and directories/);
  });
});
