// The embedded store's admin channel: a unix socket in DATA_DIR (mode 0600), held by whichever process
// has the data directory open: the server (`start`), or the `backup` / `restore` command working on a
// stopped store. It is two things:
//   - the way `backup` reaches a running server, which alone can read its store (PGlite is one process);
//   - the data directory's lock: PGlite itself lets a second process open the same directory and both
//     then corrupt it, so whoever finds the socket answering keeps out.
// A unix socket rather than an HTTP endpoint: it is reachable only from this machine (this container),
// only by the socket's owner (and root), with no port to expose, no token to keep, and it works for
// ROLE=worker, which has no HTTP listener. The server never writes a file for a caller: the backup's bytes
// go back over the socket and the command writes them with its own rights.
import { chmodSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';

export const ADMIN_SOCKET = 'tolem-admin.sock';
/** sun_path holds 108 bytes on Linux, the terminating NUL included. */
const MAX_SOCKET_PATH = 107;
const REQUEST_MAX = 4096;
const REQUEST_WAIT_MS = 10_000;

/** `server`: a running instance; else the command holding it (backup, restore, migrate, reseal, admin) */
export type Holder = string;

export interface BackupRequest {
  op: 'backup';
  /** send the secrets file along */
  secrets: boolean;
}
type Request = { op: 'hello' } | BackupRequest;

export interface Answer {
  ok: boolean;
  error?: string;
  pid?: number;
  holder?: Holder;
  /** bytes that follow the answer's line */
  bytes?: number;
}

export class AdminSocketError extends Error {
  /** the socket could not be made here at all (a file system without sockets): nobody else holds the directory */
  unavailable = false;
}

/** Why DATA_DIR cannot have its admin socket, if it cannot: a path longer than a unix socket takes. */
export function adminSocketProblem(dataDir: string): string | undefined {
  const p = path.resolve(dataDir, ADMIN_SOCKET);
  const n = Buffer.byteLength(p);
  if (n <= MAX_SOCKET_PATH) return undefined;
  return (
    `the admin socket's path ${p} is ${n} bytes, over the ${MAX_SOCKET_PATH} a unix socket allows: ` +
    'give DATA_DIR a shorter path (a symbolic link to it will do)'
  );
}

export function adminSocketPath(dataDir: string): string {
  const problem = adminSocketProblem(dataDir);
  if (problem) throw new AdminSocketError(problem);
  return path.resolve(dataDir, ADMIN_SOCKET);
}

/**
 * Sends one request to whoever holds DATA_DIR. Null when nobody listens (no socket, or one left by a
 * killed process). Rejects when the holder accepts but goes silent for `timeoutMs` (a stopped or hung
 * process), or closes before its answer is whole.
 */
export function askHolder(
  dataDir: string,
  req: Request,
  timeoutMs: number,
): Promise<{ answer: Answer; body: Buffer } | null> {
  const file = adminSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const sock = connect(file);
    const chunks: Buffer[] = [];
    let answer: Answer | undefined;
    let got = 0;
    let settled = false;
    const done = (err: Error | null, value?: { answer: Answer; body: Buffer } | null) => {
      if (settled) return;
      settled = true;
      sock.destroy();
      if (err) reject(err);
      else resolve(value ?? null);
    };
    sock.setTimeout(timeoutMs, () =>
      done(
        new AdminSocketError(
          `the process holding ${path.resolve(dataDir)} accepted the connection but sent nothing for ` +
            `${timeoutMs / 1000} s: it is stopped or hung`,
        ),
      ),
    );
    sock.on('error', (err: NodeJS.ErrnoException) => {
      if (!answer && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED')) done(null, null);
      else done(new AdminSocketError(`admin socket ${file}: ${err.message}`));
    });
    sock.on('connect', () => sock.write(`${JSON.stringify(req)}\n`));
    sock.on('data', (c: Buffer) => {
      chunks.push(c);
      got += c.length;
      if (answer) return;
      const all = Buffer.concat(chunks);
      const nl = all.indexOf(10);
      if (nl === -1) {
        if (all.length > REQUEST_MAX) done(new AdminSocketError('the holder answered something unreadable'));
        return;
      }
      try {
        answer = JSON.parse(all.subarray(0, nl).toString('utf8')) as Answer;
      } catch {
        done(new AdminSocketError('the holder answered something unreadable'));
        return;
      }
      chunks.length = 0;
      chunks.push(all.subarray(nl + 1));
      got = all.length - nl - 1;
    });
    sock.on('end', () => {
      if (!answer) return done(new AdminSocketError('the holder closed the connection without answering'));
      const want = answer.bytes ?? 0;
      if (got !== want)
        return done(new AdminSocketError(`the holder's answer was cut short (${got} of ${want} bytes)`));
      done(null, { answer, body: Buffer.concat(chunks) });
    });
  });
}

export interface HeldDataDir {
  /** what a `backup` request gets; until set (the server starting), requests wait for it */
  onBackup(fn: (req: BackupRequest) => Promise<Uint8Array>): void;
  close(): Promise<void>;
}

/**
 * Takes DATA_DIR for this process: refuses when another process answers on its socket, removes a socket
 * left by a killed one, and listens. A second process binding at the same moment fails on the socket
 * file itself (EADDRINUSE): binding is the atomic step.
 */
export async function holdDataDir(dataDir: string, holder: Holder): Promise<HeldDataDir> {
  const file = adminSocketPath(dataDir);
  const other = await askHolder(dataDir, { op: 'hello' }, 5000).catch((err: Error) => {
    throw new AdminSocketError(`${path.resolve(dataDir)} may be in use: ${err.message}`);
  });
  if (other) throw heldBy(dataDir, other.answer);
  mkdirSync(path.dirname(file), { recursive: true });
  if (existsSync(file)) unlinkSync(file);

  let backup: ((req: BackupRequest) => Promise<Uint8Array>) | undefined;
  let ready: () => void = () => {};
  const readyP = new Promise<void>((ok) => (ready = ok));
  let closing = false;
  let busy = false;

  const reply = (sock: Socket, a: Answer, body?: Uint8Array) => {
    sock.write(`${JSON.stringify({ pid: process.pid, holder, ...a })}\n`);
    if (body) sock.write(body);
    sock.end();
  };

  async function handle(sock: Socket, req: Request): Promise<void> {
    if (req.op === 'hello') return reply(sock, { ok: true });
    if (req.op !== 'backup') return reply(sock, { ok: false, error: 'unknown request' });
    if (holder !== 'server')
      return reply(sock, {
        ok: false,
        error: `the \`${holder}\` command (pid ${process.pid}) is working on this store`,
      });
    await readyP;
    if (closing) return reply(sock, { ok: false, error: 'the instance is shutting down' });
    if (busy) return reply(sock, { ok: false, error: 'a backup is already being taken; try again when it ends' });
    busy = true;
    try {
      const bytes = await backup!({ op: 'backup', secrets: req.secrets !== false });
      reply(sock, { ok: true, bytes: bytes.length }, bytes);
    } catch (err) {
      reply(sock, { ok: false, error: `the snapshot failed: ${(err as Error)?.message ?? String(err)}` });
    } finally {
      busy = false;
    }
  }

  const server: Server = createServer((sock) => {
    let buf = '';
    let heard = false;
    sock.setTimeout(REQUEST_WAIT_MS, () => sock.destroy());
    sock.on('error', () => {}); // a client that went away: nothing to do
    sock.on('data', (c: Buffer) => {
      if (heard) return; // one request per connection
      buf += c.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl === -1) {
        if (buf.length > REQUEST_MAX) sock.destroy();
        return;
      }
      const line = buf.slice(0, nl);
      heard = true;
      sock.setTimeout(0);
      let req: Request;
      try {
        req = JSON.parse(line) as Request;
      } catch {
        return reply(sock, { ok: false, error: 'the request is not JSON' });
      }
      void handle(sock, req);
    });
  });
  // Owner-only from the moment it exists: the umask covers the instant between bind and chmod. The bind
  // happens within listen(), so the umask is back before anything else of this process runs.
  const listening = new Promise<void>((ok, fail) => {
    server.once('listening', ok);
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') return fail(new AdminSocketError(`${path.resolve(dataDir)} is in use: ${file}`));
      const e = new AdminSocketError(`cannot make the admin socket ${file}: ${err.message}`);
      e.unavailable = true;
      fail(e);
    });
  });
  const umask = process.umask(0o177);
  try {
    server.listen(file);
  } finally {
    process.umask(umask);
  }
  await listening;
  chmodSync(file, 0o600);
  server.unref();

  return {
    onBackup(fn) {
      backup = fn;
      ready();
    },
    async close() {
      closing = true;
      ready();
      await new Promise<void>((ok) => server.close(() => ok()));
      try {
        unlinkSync(file); // Node removes it on close; this is for the case it did not
      } catch {
        /* already gone */
      }
    },
  };
}

export function heldBy(dataDir: string, a: Answer): AdminSocketError {
  const who = a.holder === 'server' ? 'a running Tolem instance' : `the \`${a.holder ?? '?'}\` command`;
  return new AdminSocketError(`${path.resolve(dataDir)} is held by ${who} (pid ${a.pid ?? '?'})`);
}
