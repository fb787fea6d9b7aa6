// The payments of the mode: a search (status, text, days, amount, phone's last digits) kept in the URL, a
// table of what it finds (cards on a phone; with the comment a text search matches), each row opening the
// payment, 100 at a time with "show more" (cursor pages), and the CSV of the same search as a Russian-locale
// spreadsheet opens it.
import { Group, Button, Anchor, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client.ts';
import { accessToken } from '../../api/session.ts';
import { useMode } from '../../mode.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
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
      <Rows
        testId="payments-table"
        rows={rows}
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
          { label: t('common.status'), cell: (p) => <StatusBadge status={p.status} kind="payment_status" /> },
          { label: t('common.amount'), cell: (p) => tenge(p.amount), align: 'right' },
          { label: t('common.created'), cell: (p) => dateTime(p.created_at, i18n.language) },
          // What a text search matched; a long comment is cut here and whole on the payment's page.
          {
            label: t('search.comment'),
            cell: (p) => (
              <Text size="sm" lineClamp={1} maw={240} title={p.comment ?? undefined}>
                {p.comment ?? '—'}
              </Text>
            ),
          },
          { label: t('payments.customer'), cell: (p) => p.sender_name ?? p.phone ?? '—' },
        ]}
        empty={t(searching ? 'search.nothing' : 'common.empty')}
      />
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
