// A live provider account's client certificate nearing its end (decisions 24): the client is told 30 days
// ahead, once per certificate (the dedupe key names the account and the expiry date), and again if it is
// still in use a day before. Set-based: one pass covers every account, so the job may run often.
import type { Queryable } from '../../db/db.ts';
import { notify } from './notify.ts';
import { accountsWithCertificateEnding } from '../payments/provider-accounts.ts';

export const CERTIFICATE_NOTICE_DAYS = 30;

export async function noticeExpiringCertificates(db: Queryable, now: Date): Promise<number> {
  const ending = await accountsWithCertificateEnding(db, now, CERTIFICATE_NOTICE_DAYS);
  let sent = 0;
  for (const a of ending) {
    const date = a.certificate_expires_at.toISOString().slice(0, 10);
    const stage = a.days <= 1 ? 'last_day' : 'month';
    const when = a.days < 0 ? `expired on ${date}` : `expires on ${date}`;
    const id = await notify(db, a.client_id, {
      type: 'provider.certificate_expiring',
      params: {
        account: a.display_name,
        expires_at: a.certificate_expires_at.toISOString(),
        variant: a.days < 0 ? 'expired' : 'expires',
      },
      title: `Provider certificate of "${a.display_name}" ${when}`,
      body:
        'Request a new client certificate from the provider and reconnect the account before then; ' +
        'live payments through it stop when it expires.',
      dedupeKey: `certificate:${a.id}:${date}:${stage}`,
    });
    if (id !== null) sent++;
  }
  return sent;
}
