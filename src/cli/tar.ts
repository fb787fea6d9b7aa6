// The POSIX tar (ustar) subset that backups need: regular files and directories, names up to 255
// characters. Read strictly: every header's checksum is verified and anything else (links, devices, a
// truncated member) is an error, so a damaged or foreign file is refused before anything is written.
// Written by hand because the format is this small and no tar library is among the dependencies.

export interface TarEntry {
  name: string;
  type: 'file' | 'dir';
  /** permission bits (0o600, 0o700, ...) */
  mode: number;
  /** empty for a directory */
  data: Uint8Array;
}

const BLOCK = 512;

export class TarError extends Error {}

function field(h: Uint8Array, at: number, len: number): string {
  const raw = Buffer.from(h.subarray(at, at + len)).toString('utf8');
  const nul = raw.indexOf('\0');
  return nul === -1 ? raw : raw.slice(0, nul);
}

function octal(h: Uint8Array, at: number, len: number, what: string): number {
  const text = field(h, at, len).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarError(`a member's ${what} is not a number`);
  return Number.parseInt(text, 8);
}

/** The header's checksum: the sum of its bytes, with the checksum field itself counted as spaces. */
function checksum(h: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
  return sum;
}

export function readTar(bytes: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let at = 0;
  for (;;) {
    if (at + BLOCK > bytes.length) throw new TarError('the archive ends inside a header (truncated)');
    const h = bytes.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) return entries; // the end-of-archive block
    if (octal(h, 148, 8, 'checksum') !== checksum(h)) throw new TarError(`header checksum mismatch at byte ${at}`);
    const prefix = field(h, 345, 155);
    const base = field(h, 0, 100);
    const name = prefix ? `${prefix}/${base}` : base;
    const flag = String.fromCharCode(h[156]);
    const size = octal(h, 124, 12, 'size');
    const mode = octal(h, 100, 8, 'mode') & 0o777;
    const start = at + BLOCK;
    if (start + size > bytes.length) throw new TarError(`member ${name} is cut short (truncated archive)`);
    if (flag === '0' || flag === '\0') {
      entries.push({ name, type: 'file', mode, data: bytes.subarray(start, start + size) });
    } else if (flag === '5') {
      entries.push({ name, type: 'dir', mode, data: new Uint8Array(0) });
    } else {
      throw new TarError(`member ${name} has type "${flag}": only files and directories are expected`);
    }
    at = start + Math.ceil(size / BLOCK) * BLOCK;
  }
}

function put(h: Uint8Array, at: number, len: number, text: string): void {
  const b = Buffer.from(text, 'utf8');
  if (b.length > len) throw new TarError(`"${text}" does not fit a tar header field`);
  h.set(b, at);
}

const oct = (n: number, width: number) => `${n.toString(8).padStart(width - 1, '0')}\0`;

function header(e: TarEntry, mtime: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  let name = e.name;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new TarError(`name too long: ${e.name}`);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  put(h, 0, 100, name);
  put(h, 100, 8, oct(e.mode, 8));
  put(h, 108, 8, oct(0, 8));
  put(h, 116, 8, oct(0, 8));
  put(h, 124, 12, oct(e.type === 'file' ? e.data.length : 0, 12));
  put(h, 136, 12, oct(mtime, 12));
  h[156] = (e.type === 'file' ? '0' : '5').charCodeAt(0);
  put(h, 257, 6, 'ustar\0');
  put(h, 263, 2, '00');
  put(h, 345, 155, prefix);
  put(h, 148, 8, `${checksum(h).toString(8).padStart(6, '0')}\0 `);
  return h;
}

export function writeTar(entries: TarEntry[], mtime = Math.floor(Date.now() / 1000)): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    parts.push(header(e, mtime));
    if (e.type === 'file' && e.data.length) {
      parts.push(e.data);
      const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
      if (pad) parts.push(new Uint8Array(pad));
    }
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return Buffer.concat(parts);
}
