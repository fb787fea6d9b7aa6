// One owner per table (docs/architecture.md): a table's rows are written only by its owner (a folder or a
// module), and read elsewhere only by the read models named below, each with its reason. dependency-cruiser
// checks imports; this checks the SQL, which imports cannot show. A new statement that names another
// folder's table fails here: call the owner's named query instead, or add a read model and say why.
import { describe, expect, it } from 'vitest';
import { knownTables, statementsBySourceFile, tablesBySourceFile, type TableUse } from './sql-tables.ts';

const ACCOUNTS = 'src/domain/accounts/';
const PAYMENTS = 'src/domain/payments/';
const PARTNERS = 'src/domain/partners/';
const LINKS = 'src/domain/links/';
const WEBHOOKS = 'src/domain/webhooks/';

/** Each table's owner: a folder (ending in /) or one module. */
export const OWNERS: Record<string, string> = {
  clients: ACCOUNTS,
  users: ACCOUNTS,
  api_keys: ACCOUNTS,
  magic_tokens: ACCOUNTS,
  refresh_tokens: ACCOUNTS,
  impersonation_sessions: ACCOUNTS,
  operations: PAYMENTS,
  refunds: PAYMENTS,
  installation: PAYMENTS,
  provider_accounts: PAYMENTS,
  onboarding: 'src/domain/onboarding/',
  payment_links: LINKS,
  checkout_operations: LINKS,
  checkout_visitors: LINKS,
  catalog_items: 'src/domain/catalog/',
  webhooks: WEBHOOKS,
  webhook_deliveries: WEBHOOKS,
  events: 'src/domain/events/',
  outbox_messages: 'src/domain/channels/',
  notifications: 'src/domain/notifications/',
  notification_settings: 'src/domain/notifications/',
  organizations: 'src/domain/organization/',
  branding: 'src/domain/branding/',
  admin_audit: 'src/domain/admin/',
  tickets: 'src/domain/support/',
  ticket_messages: 'src/domain/support/',
  partners: PARTNERS,
  partner_api_keys: PARTNERS,
  partner_balances: PARTNERS,
  partner_bank: PARTNERS,
  partner_invites: PARTNERS,
  partner_ledger: PARTNERS,
  commissions: PARTNERS,
  withdrawals: PARTNERS,
  referral_links: PARTNERS,
  referral_clicks: PARTNERS,
  idempotency_keys: 'src/http/plugins/idempotency.ts',
  request_logs: 'src/http/plugins/request-log.ts',
  sandbox_payments: 'src/providers/sandbox-ledger.ts',
  sandbox_refunds: 'src/providers/sandbox-ledger.ts',
  settings: 'src/secrets.ts',
  fiscal_registers: 'src/domain/fiscal/',
  counters: 'src/domain/payments/counters.ts',
  fiscal_receipts: 'src/domain/fiscal/',
  fiscal_shifts: 'src/domain/fiscal/',
  fiscal_sandbox_registers: 'src/fiscal/sandbox.ts',
  fiscal_sandbox_receipts: 'src/fiscal/sandbox.ts',
};

/**
 * Modules that read (never write) tables of other owners, and why a join there is better than a call to the
 * owner: reports and lists over several aggregates, where one statement is the point.
 */
export const READ_MODELS: Record<string, { tables: string[]; why: string }> = {
  'src/domain/accounts/impersonation.ts': {
    tables: ['partners'],
    why: 'a call under impersonation counts only while its partner is active, checked in the statement that counts it',
  },
  'src/domain/accounts/integrations.ts': {
    tables: ['provider_accounts', 'webhooks', 'request_logs', 'partners'],
    why: "the integration overview: the client's accounts, webhooks, last requests and partner on one page",
  },
  'src/domain/accounts/profile.ts': {
    tables: ['provider_accounts', 'request_logs'],
    why: "GET /me's summary of what the account has connected and when it was last used",
  },
  'src/domain/branding/branding.ts': {
    tables: ['clients'],
    why: "a public page's merchant: the client's name beside its branding, one statement per page view",
  },
  'src/domain/fiscal/enqueue.ts': {
    tables: ['refunds', 'operations'],
    why: "a return receipt's lines: the refund's own and its sale's items, read in the refund's transaction",
  },
  'src/domain/fiscal/registers.ts': {
    tables: ['provider_accounts'],
    why: "a register bound to a provider account: the account must be the client's, of the register's mode",
  },
  'src/domain/links/checkout.ts': {
    tables: ['operations'],
    why: "a link's QRs are operations: the checkout reads the one it shows with the link's own rows",
  },
  'src/domain/links/paid-meanwhile.ts': {
    tables: ['operations'],
    why: "whether a QR issued for the link was paid unseen: the link's issued QRs joined to their operations",
  },
  'src/domain/notifications/alert-settings.ts': {
    tables: ['users'],
    why: "a member's alert settings beside its role (the defaults) and whether its messenger chat is bound",
  },
  'src/domain/notifications/staff-alerts.ts': {
    tables: ['users', 'clients', 'operations', 'refunds'],
    why: "the members who want an alert and can be reached, with the payment's comment, in the event's transaction",
  },
  'src/domain/notifications/daily-summary.ts': {
    tables: ['users', 'clients', 'events'],
    why: "the day's totals from the journal, and whether the member and its client can still be reached",
  },
  'src/domain/notifications/plan-notices.ts': {
    tables: ['clients', 'operations'],
    why: "the month's live payments counted against the plan under the client's lock, in the payment's transaction",
  },
  'src/domain/partners/act.ts': {
    tables: ['clients'],
    why: "a withdrawal's act names the clients whose commissions it pays",
  },
  'src/domain/partners/analytics.ts': {
    tables: ['clients', 'operations', 'provider_accounts'],
    why: "the partner's analytics: aggregates over its clients' payments, one statement per figure",
  },
  'src/domain/partners/clients.ts': {
    tables: ['clients', 'operations', 'provider_accounts', 'onboarding'],
    why: "the partner's list of clients with their state and volume, one keyset page",
  },
  'src/domain/partners/commissions.ts': {
    tables: ['clients', 'operations'],
    why: "a commission is recorded in the paid operation's transaction, from the client's partner",
  },
  'src/domain/partners/impersonate.ts': {
    tables: ['clients', 'users'],
    why: "opening a session checks the client's consent and its active owner in one statement",
  },
  'src/domain/partners/keys.ts': {
    tables: ['clients'],
    why: "a partner key's resolution (every partner API call) reads whether the partner's own client is disabled",
  },
  'src/domain/partners/payments.ts': {
    tables: ['clients', 'operations'],
    why: "the partner API's payments: its clients' operations in one keyset page",
  },
  'src/domain/payments/plan-check.ts': {
    tables: ['clients'],
    why: 'payments sit below accounts (payments-core): the plan is read, never changed, on every live create',
  },
  'src/domain/payments/report-rows.ts': {
    tables: ['fiscal_receipts'],
    why:
      "the streamed payment reports (decisions 28): each payment's sale receipt status and fiscal sign, one " +
      'LEFT JOIN on its unique index in the batch that reads the payments',
  },
  'src/domain/support/tickets.ts': {
    tables: ['users'],
    why: 'a ticket carries its author: lists show the name, answers go to the e-mail and messenger chat',
  },
  'src/domain/v1/history.ts': {
    tables: ['operations'],
    why: 'the deprecated v1 API is a view of payments by their seq',
  },
  'src/domain/v1/operations.ts': {
    tables: ['operations'],
    why: 'the deprecated v1 API is a view of payments by their seq',
  },
};

/** Modules that write tables of other owners, and why. */
export const FOREIGN_WRITERS: Record<string, { tables: string[]; why: string }> = {
  'src/jobs/retention.ts': {
    tables: ['idempotency_keys', 'request_logs', 'outbox_messages', 'clients'],
    why: 'the retention policy in one place: rows past their lifetime (by plan), deleted in bounded batches',
  },
};

const owns = (owner: string, file: string) => (owner.endsWith('/') ? file.startsWith(owner) : file === owner);

export function violations(byFile: Map<string, TableUse[]> = tablesBySourceFile()): string[] {
  const out: string[] = [];
  for (const [file, uses] of byFile) {
    for (const { table, write } of uses) {
      const owner = OWNERS[table];
      if (!owner) out.push(`${file}: ${table} has no owner in OWNERS`);
      else if (owns(owner, file)) continue;
      else if (write && !FOREIGN_WRITERS[file]?.tables.includes(table))
        out.push(`${file}: writes ${table}, owned by ${owner}`);
      else if (!write && !READ_MODELS[file]?.tables.includes(table) && !FOREIGN_WRITERS[file]?.tables.includes(table))
        out.push(`${file}: reads ${table}, owned by ${owner}`);
    }
  }
  return out;
}

describe('one owner per table', () => {
  it('every table a migration creates has an owner', () => {
    expect([...knownTables()].filter((t) => !OWNERS[t])).toEqual([]);
  });

  it('no SQL names a table outside its owner, a declared read model or a declared writer', () => {
    expect(violations()).toEqual([]);
  });

  it('the check flags a foreign write and an undeclared foreign read, and lets the owner be', () => {
    const found = violations(
      new Map([
        ['src/domain/links/new.ts', [{ table: 'operations', write: true }]],
        ['src/domain/webhooks/new.ts', [{ table: 'clients', write: false }]],
        ['src/domain/payments/new.ts', [{ table: 'operations', write: true }]],
        ['src/domain/v1/history.ts', [{ table: 'operations', write: true }]],
      ]),
    );
    expect(found).toEqual([
      'src/domain/links/new.ts: writes operations, owned by src/domain/payments/',
      'src/domain/webhooks/new.ts: reads clients, owned by src/domain/accounts/',
      // A read model reads only.
      'src/domain/v1/history.ts: writes operations, owned by src/domain/payments/',
    ]);
  });

  it('the scanner reads the tables a statement writes and joins', () => {
    const uses = tablesBySourceFile();
    expect(uses.get('src/domain/payments/transition.ts')).toContainEqual({ table: 'operations', write: true });
    expect(uses.get('src/domain/accounts/users-store.ts')?.map((u) => u.table)).toEqual(['users', 'clients']);
  });
});

describe('status changes only through guarded transitions', () => {
  // The SET list of each UPDATE of the table (up to its WHERE, FROM or RETURNING) assigns `status` itself (an
  // assignment opens the list or follows a comma): not return_status, nor `CASE WHEN status = ...` in a value.
  const setsStatus = (table: string, sql: string) =>
    [
      ...sql.matchAll(
        new RegExp(
          `UPDATE\\s+${table}\\b(?:\\s+\\w+)?\\s+SET\\b((?:(?!\\b(?:WHERE|FROM|RETURNING)\\b)[\\s\\S])*)`,
          'gi',
        ),
      ),
    ].some((m) => /(?:^|,)\s*status\s*=/i.test(m[1]));
  const GUARDED: Record<string, string> = {
    operations: 'src/domain/payments/transition.ts',
    refunds: 'src/domain/payments/refund-settle.ts',
  };

  it('reads an assignment of status, not a read of it or another column', () => {
    expect(setsStatus('operations', "UPDATE operations SET updated_at = now(), status = 'paid' WHERE id = $1")).toBe(
      true,
    );
    expect(setsStatus('refunds', 'UPDATE refunds r SET status = $2 WHERE id = $1')).toBe(true);
    expect(setsStatus('operations', "UPDATE operations SET x = CASE WHEN status = 'created' THEN 1 END")).toBe(false);
    expect(setsStatus('refunds', "UPDATE refunds SET return_status = $2 WHERE id = $1 AND status = 'pending'")).toBe(
      false,
    );
  });

  it.each(Object.entries(GUARDED))('%s.status is set only in %s', (table, module) => {
    const setters = [...statementsBySourceFile()]
      .filter(([, sqls]) => sqls.some((sql) => setsStatus(table, sql)))
      .map(([file]) => file);
    expect(setters).toEqual([module]);
  });
});
