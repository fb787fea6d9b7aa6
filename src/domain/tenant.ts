// Whose data a call touches: a client (merchant) and a mode. Every tenant query takes both; another
// tenant's row is "not found" (architecture rule 3).
export type Mode = 'live' | 'test';

export interface Tenant {
  clientId: number;
  mode: Mode;
}
