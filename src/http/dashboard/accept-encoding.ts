// Which of the codings a file has the client accepts (RFC 9110 12.5.3): `br;q=0` refuses brotli, `*`
// stands for any coding not named, and a higher q wins; between equal q values the server's order
// decides (brotli first: it is the smaller). Undefined: send the file itself (identity).
import type { Encoding } from '../../web/dashboard-files.ts';

export function pickEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | undefined {
  if (!header || available.length === 0) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p)).find(Boolean);
    weights.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const weight = (e: Encoding) => weights.get(e) ?? weights.get(e === 'gzip' ? 'x-gzip' : e) ?? weights.get('*') ?? 0;
  let best: Encoding | undefined;
  for (const e of available) if (weight(e) > 0 && (!best || weight(e) > weight(best))) best = e;
  return best;
}
