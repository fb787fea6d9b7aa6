// r3's static-IP allow-list (document p.5: the bank admits r3 calls only from the partner's registered
// address). How the provider refuses an unlisted address is not public, so both plausible ways can be set
// with POST /__emulator/allowlist {"r3": ["203.0.113.7"] | null, "refuse": "http403" | "tls"}:
//   http403  r3 calls answer HTTP 403 with the plain-text body `Forbidden` (a web front's refusal, not the
//            JSON envelope); r1 and r2 calls are answered as usual.
//   tls      the TLS session is refused: a new connection from an unlisted address is closed before its
//            handshake (the client reads "socket disconnected before secure TLS connection was
//            established"; nothing was sent). The emulator serves every scheme and its control API on one
//            port and learns the path only from the HTTP request, after the handshake, so in this mode new
//            connections from that address are refused whatever they carry (the provider's r3 has a host
//            of its own). Setting the list closes the idle connections; one still open (the control
//            call's own) keeps serving control, r1 and r2 calls, and an r3 call on it is closed unanswered.
//            Undo it in process (`emu.state.allowlist = ...`, `emu.state.reset()`) or from a listed address
//            (any of 127.0.0.0/8 reaches the emulator, e.g. 127.0.0.2).
import type { Server } from 'node:https';
import type { Socket } from 'node:net';

export const REFUSALS = ['http403', 'tls'] as const;
export type Refusal = (typeof REFUSALS)[number];

export interface Allowlist {
  /** the source addresses r3 admits; null admits every address */
  r3: string[] | null;
  refuse: Refusal;
}

/** The default (every address admitted); copied where it is set, so nobody changes it through the state. */
export const OPEN: Readonly<Allowlist> = Object.freeze({ r3: null, refuse: 'http403' });

/** The client's address as written in a list: "127.0.0.1", not the IPv4-mapped "::ffff:127.0.0.1". */
export const sourceAddress = (socket: Socket): string =>
  (socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

export const admits = (a: Allowlist, socket: Socket): boolean => a.r3 === null || a.r3.includes(sourceAddress(socket));

/** The allow-list of a control call, or what is wrong with it. */
export function parseAllowlist(body: Record<string, unknown>): Allowlist | string {
  const r3 = body.r3 ?? null;
  if (r3 !== null && !(Array.isArray(r3) && r3.every((x) => typeof x === 'string')))
    return 'r3 must be a list of addresses or null';
  const refuse = body.refuse ?? 'http403';
  if (!REFUSALS.includes(refuse as Refusal)) return `refuse must be one of ${REFUSALS.join(', ')}`;
  return { r3: r3 as string[] | null, refuse: refuse as Refusal };
}

/** In `tls` mode, a connection from an unlisted address is closed before the handshake. */
export function refuseUnlistedHandshakes(server: Server, current: () => Allowlist): void {
  server.on('connection', (socket: Socket) => {
    const a = current();
    if (a.refuse === 'tls' && !admits(a, socket)) socket.destroy();
  });
}
