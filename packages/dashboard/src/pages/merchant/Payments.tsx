// The payments of the mode: a table (cards on a phone) filtered by status, each opening the payment; CSV export.
import { Select, Group, Button, Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { accessToken } from '../../api/session.ts';
import { useMode } from '../../mode.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime, tenge } from '../../format.ts';

const STATUSES = ['created', 'paid', 'refunded', 'partially_refunded', 'cancelled', 'expired'] as const;
type Status = (typeof STATUSES)[number];

/** The CSV comes with the session's token, so it is fetched and handed to the browser as a file. */
async function exportCsv(mode: string, status: string | null) {
  const q = new URLSearchParams({ mode, ...(status ? { status } : {}) });
  const res = await fetch(`/me/payments/export?${q}`, { headers: { authorization: `Bearer ${await accessToken()}` } });
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: `payments-${mode}.csv` });
  a.click();
  URL.revokeObjectURL(url);
}

export default function Payments() {
  const { t, i18n } = useTranslation();
  const { mode } = useMode();
  const [status, setStatus] = useState<Status | null>(null);
  const list = useQuery({
    queryKey: ['payments', mode, status],
    queryFn: () =>
      unwrap(api.GET('/me/payments', { params: { query: { mode, limit: 100, ...(status ? { status } : {}) } } })),
  });
  return (
    <Page
      title={t('payments.title')}
      actions={
        <Button variant="light" onClick={() => void exportCsv(mode, status)}>
          {t('payments.export')}
        </Button>
      }
    >
      <Group>
        <Select
          label={t('payments.filter')}
          data={[
            { value: '', label: t('common.all') },
            ...STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
          ]}
          value={status ?? ''}
          onChange={(v) => setStatus((v || null) as Status | null)}
          allowDeselect={false}
        />
      </Group>
      <ErrorAlert error={list.error} />
      <Rows
        testId="payments-table"
        rows={list.data?.data}
        rowKey={(p) => p.operation_id}
        columns={[
          {
            label: t('payments.operation'),
            cell: (p) => (
              <Anchor component={Link} to={`/payments/${p.operation_id}`} ff="monospace" size="sm">
                {p.operation_id}
              </Anchor>
            ),
          },
          { label: t('common.status'), cell: (p) => <StatusBadge status={p.status} /> },
          { label: t('common.amount'), cell: (p) => tenge(p.amount), align: 'right' },
          { label: t('common.created'), cell: (p) => dateTime(p.created_at, i18n.language) },
          { label: t('payments.customer'), cell: (p) => p.sender_name ?? p.phone ?? '—' },
        ]}
      />
    </Page>
  );
}
