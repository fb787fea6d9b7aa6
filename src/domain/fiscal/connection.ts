// One register as the sending job talks to it: its driver, its session (opened from the sealed column,
// saved sealed after each login), a login again once when the service says the token expired, and the
// register's troubles recorded with one notification each. The caller holds the register's lease.
import type { Deps } from '../../deps.ts';
import type { FiscalDriver, FiscalSession } from '../../fiscal/types.ts';
import { FiscalError } from '../../fiscal/types.ts';
import { notify } from '../notifications/notify.ts';
import { saveRegisterState, saveSession, type SealedRegister } from './registers-store.ts';

export type FiscalDeps = Pick<Deps, 'db' | 'secrets' | 'clock' | 'fiscal' | 'config'>;

/** The register statuses a refusal puts it in (decisions 27). */
const TROUBLE = { blocked: 'blocked', auth_failed: 'auth_failed', offline_expired: 'offline' } as const;
/** The notification's wording of each (kinds.ts variants). */
const VARIANT = { blocked: 'blocked', auth_failed: 'credentials', offline_expired: 'offline' } as const;
type Trouble = keyof typeof TROUBLE;
export const isTrouble = (e: unknown): e is FiscalError & { kind: Trouble } =>
  e instanceof FiscalError && Object.hasOwn(TROUBLE, e.kind);

export class RegisterConnection {
  readonly driver: FiscalDriver;
  private session: FiscalSession | null;

  constructor(
    private readonly deps: FiscalDeps,
    readonly reg: SealedRegister,
  ) {
    const credentials = JSON.parse(deps.secrets.sealer.open(reg.credentials_sealed)) as Record<string, string>;
    this.driver = deps.fiscal.driver(reg.driver, {
      registerId: reg.id,
      registerNumber: reg.register_number,
      credentials,
    });
    this.session = reg.session_sealed
      ? (JSON.parse(deps.secrets.sealer.open(reg.session_sealed)) as FiscalSession)
      : null;
  }

  private async login(): Promise<FiscalSession> {
    try {
      this.session = await this.driver.authorize();
    } catch (err) {
      if (isTrouble(err)) await this.trouble(err);
      throw err;
    }
    await saveSession(this.deps.db, this.reg.id, this.deps.secrets.sealer.seal(JSON.stringify(this.session)));
    return this.session;
  }

  /** Runs a call with the session, logging in first when there is none, and once more when it expired. */
  async call<T>(fn: (s: FiscalSession) => Promise<T>): Promise<T> {
    const session = this.session ?? (await this.login());
    try {
      return await fn(session);
    } catch (err) {
      if (err instanceof FiscalError && err.kind === 'token_expired') return fn(await this.login());
      if (isTrouble(err)) await this.trouble(err);
      throw err;
    }
  }

  /** The register is blocked, its credentials refused, or offline too long: its status says so, once. */
  async trouble(err: FiscalError & { kind: Trouble }): Promise<void> {
    const status = TROUBLE[err.kind];
    if (this.reg.status === status) return;
    await this.deps.db.tx(async (tx) => {
      await saveRegisterState(tx, this.reg.id, { status });
      await notify(tx, this.reg.client_id, {
        type: 'fiscal.register_trouble',
        params: { register: this.name, register_id: this.reg.id, variant: VARIANT[err.kind] },
        title: `Cash register "${this.name}" cannot issue receipts`,
        body:
          err.kind === 'auth_failed'
            ? 'The cash-register service refused its credentials. Update them in the fiscal settings, then retry ' +
              'the failed receipts.'
            : err.kind === 'blocked'
              ? 'The cash-register service says the register is blocked or not active. Resolve it with the ' +
                'service, then retry the failed receipts.'
              : 'The register has been offline for more than 72 hours and refuses receipts until its data reach ' +
                'the fiscal data operator.',
      });
    });
    this.reg.status = status;
  }

  get name(): string {
    return this.reg.display_name ?? this.reg.register_number;
  }
}
