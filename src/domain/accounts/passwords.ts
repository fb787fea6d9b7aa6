// argon2id at the OWASP minimum (19 MiB, t=2, p=1): hashing runs on libuv's pool, not the event loop.
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

const PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, PARAMS);

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// A hash to verify against when there is no password to check, so timing does not reveal which e-mails
// exist. Of a random value: no password is known to match it (the result is thrown away anyway).
let dummy: Promise<string> | undefined;
export const dummyHash = (): Promise<string> => (dummy ??= hashPassword(randomBytes(32).toString('hex')));
