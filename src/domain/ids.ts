// Identifiers (decisions 1): prefixed ULIDs, monotonic within a process so that ids made in one
// millisecond still sort in creation order (keyset pagination breaks created_at ties by id).
import { monotonicFactory } from 'ulidx';

const next = monotonicFactory();

export const newId = (prefix: 'op' | 'rf' | 'evt' | 'req' | 'msg') => `${prefix}_${next()}`;
