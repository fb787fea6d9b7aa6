// Identifiers (decisions 1): prefixed ULIDs, monotonic within a process so that ids made in one
// millisecond still sort in creation order (keyset pagination breaks created_at ties by id).
import { webcrypto } from 'node:crypto';
import { monotonicFactory } from 'ulidx';

// ulidx draws one CSPRNG value per character of a new millisecond's random part; drawing them from a
// pooled buffer makes that one getRandomValues call per 4096 draws instead of 16 per id (every request
// gets an id, so this showed in the request profile).
const pool = new Uint32Array(4096);
let at = pool.length;
function pooledRandom(): number {
  if (at === pool.length) {
    webcrypto.getRandomValues(pool);
    at = 0;
  }
  return pool[at++] / 0x1_0000_0000;
}

/** A ULID source, monotonic within this process. */
export const ulidSource = () => monotonicFactory(pooledRandom);

const next = ulidSource();

export const newId = (prefix: 'op' | 'rf' | 'evt' | 'req' | 'msg' | 'fr' | 'rc' | 'ci' | 'ct') => `${prefix}_${next()}`;

/** How events name a payment link (decisions 1): `pl_<token>`, whoever writes the event. */
export const eventToken = (token: string) => `pl_${token}`;
