// The payments of the mode: a search (status, text, days, amount, phone's last digits) kept in the URL, a
// table of what it finds (with the comment a text search matches), each row opening the payment, 100 at a
// time with "show more" (cursor pages), and the CSV of the same search as a Russian-locale spreadsheet opens it.
import { Table, Group, Button, Anchor, ScrollArea, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client.ts';
import { accessToken } from '../../api/session.ts';
import { useMode } from '../../mode.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime, tenge } from '../../format.ts';
import { PaymentSearch } from './PaymentSearch.tsx';
import { formOf, paramsOf, queryOf, type SearchQuery } from './payment-search.ts';
import './i18n-search.ts';

const PAGE = 100;

/** The CSV comes with the session's token, so it is fetched and handed to the browser as a file. */
async function exportCsv(mode: string, query: SearchQuery, failed: string) {
  const q = new URLSearchParams({ mode, format: 'excel-ru' });
  for (const [k, v] of Object.entries(query)) q.set(k, String(v));
  const res = await fetch(`/me/payments/export?${q}`, { headers: { authorization: `Bearer ${await accessToken()}` } });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw body?.error ? new ApiError(res.status, body.error) : new Error(failed);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: `payments-${mode}.csv` });
  a.click();
  URL.revokeObjectURL(url);
}

export default function Payments() {
  const { t, i18n } = useTranslation();
  const { mode } = useMode();
  const [params, setParams] = useSearchParams();
  const form = formOf(params);
  const query = queryOf(form);
  const searching = Object.keys(query).length > 0;
  const [exportError, setExportError] = useState<unknown>(null);
  const list = useInfiniteQuery({
    queryKey: ['payments', mode, query],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/me/payments', {
          params: { query: { mode, limit: PAGE, ...query, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const rows = list.data?.pages.flatMap((p) => p.data);
  return (
    <Page
      title={t('payments.title')}
      actions={
        <Button
          variant="light"
          onClick={() => {
            setExportError(null);
            exportCsv(mode, query, t('search.exportFailed')).catch(setExportError);
          }}
        >
          {t('payments.export')}
        </Button>
      }
    >
      <PaymentSearch value={form} onSearch={(f) => setParams(paramsOf(f))} />
      <ErrorAlert error={list.error ?? exportError} />
      <ScrollArea viewportProps={{ tabIndex: 0 }}>
        <Table striped highlightOnHover miw={640} data-testid="payments-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('payments.operation')}</Table.Th>
              <Table.Th>{t('common.status')}</Table.Th>
              <Table.Th ta="right">{t('common.amount')}</Table.Th>
              <Table.Th>{t('common.created')}</Table.Th>
              <Table.Th>{t('search.comment')}</Table.Th>
              <Table.Th>{t('payments.customer')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows?.map((p) => (
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
                {/* What a text search matched; a long comment is cut here and whole on the payment's page. */}
                <Table.Td maw={240} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {p.comment ?? '—'}
                </Table.Td>
                <Table.Td>{p.sender_name ?? p.phone ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {rows?.length === 0 && <Text c="dimmed">{t(searching ? 'search.nothing' : 'common.empty')}</Text>}
      {rows && rows.length > 0 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed" data-testid="payments-shown" aria-live="polite">
            {t('search.shown', { count: rows.length })}
          </Text>
          {list.hasNextPage && (
            <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
              {t('common.more')}
            </Button>
          )}
        </Group>
      )}
    </Page>
  );
}
