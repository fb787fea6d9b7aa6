// The payments of the mode: a table filtered by status, each row opening the payment; CSV export.
import { Table, Select, Group, Button, Anchor, ScrollArea, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { accessToken } from '../../api/session.ts';
import { useMode } from '../../mode.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime, tenge } from '../../format.ts';
import { useWords } from '../../components/words.ts';

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
  const { word } = useWords();
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
            ...STATUSES.map((s) => ({ value: s, label: word('payment_status', s) })),
          ]}
          value={status ?? ''}
          onChange={(v) => setStatus((v || null) as Status | null)}
          allowDeselect={false}
        />
      </Group>
      <ErrorAlert error={list.error} />
      <ScrollArea viewportProps={{ tabIndex: 0 }}>
        <Table striped highlightOnHover miw={640} data-testid="payments-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('payments.operation')}</Table.Th>
              <Table.Th>{t('common.status')}</Table.Th>
              <Table.Th ta="right">{t('common.amount')}</Table.Th>
              <Table.Th>{t('common.created')}</Table.Th>
              <Table.Th>{t('payments.customer')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data?.data.map((p) => (
              <Table.Tr key={p.operation_id}>
                <Table.Td>
                  <Anchor component={Link} to={`/payments/${p.operation_id}`} ff="monospace" size="sm">
                    {p.operation_id}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={p.status} kind="payment_status" />
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {tenge(p.amount)}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime(p.created_at, i18n.language)}</Table.Td>
                <Table.Td>{p.sender_name ?? p.phone ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {list.data?.data.length === 0 && <Text c="dimmed">{t('common.empty')}</Text>}
    </Page>
  );
}
