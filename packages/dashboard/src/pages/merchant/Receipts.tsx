// The fiscal receipts of the mode, newest first (cursor pages), found by status, kind and payment (kept in
// the URL, so a payment's page links to its receipts): each with its kind, status, amount, fiscal sign,
// shift, time, an offline mark, why it failed in words, and its page at the fiscal data operator; a failed
// one tried again, an issued one sent to the payer, by those whose role may.
import { Anchor, Badge, Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { useCan } from '../../api/me.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { notify } from '../../components/notify.ts';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useWords } from '../../components/words.ts';
import { dateTime, tenge } from '../../format.ts';
import { useMode } from '../../mode.tsx';
import { CheckLink, FiscalTabs, ReceiptError, type Receipt } from './fiscal-parts.tsx';
import { ReceiptSend } from './ReceiptSend.tsx';

const PAGE = 50;
const STATUSES = ['pending', 'issued', 'failed'] as const;
const KINDS = ['sale', 'return'] as const;
const ALL = 'all';

type Filter = { status?: (typeof STATUSES)[number]; kind?: (typeof KINDS)[number]; operation_id?: string };

function filterOf(p: URLSearchParams): Filter {
  const status = STATUSES.find((s) => s === p.get('status'));
  const kind = KINDS.find((k) => k === p.get('kind'));
  const op = p.get('operation_id')?.trim();
  return { ...(status ? { status } : {}), ...(kind ? { kind } : {}), ...(op ? { operation_id: op } : {}) };
}

function Filters({ value, onSearch }: { value: Filter; onSearch: (f: Filter) => void }) {
  const { t } = useTranslation();
  const { word } = useWords();
  const [status, setStatus] = useState<string>(value.status ?? ALL);
  const [kind, setKind] = useState<string>(value.kind ?? ALL);
  const [op, setOp] = useState(value.operation_id ?? '');
  const all = { value: ALL, label: t('common.all') };
  return (
    <form
      role="search"
      aria-label={t('fiscal.filters')}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(filterOf(new URLSearchParams({ status, kind, operation_id: op })));
      }}
    >
      <Group align="end" wrap="wrap" gap="sm">
        <Select
          label={t('common.status')}
          data={[all, ...STATUSES.map((s) => ({ value: s, label: word('receipt_status', s) }))]}
          value={status}
          onChange={(v) => setStatus(v ?? ALL)}
          allowDeselect={false}
          w={170}
        />
        <Select
          label={t('fiscal.kind')}
          data={[all, ...KINDS.map((k) => ({ value: k, label: word('receipt_kind', k) }))]}
          value={kind}
          onChange={(v) => setKind(v ?? ALL)}
          allowDeselect={false}
          w={150}
        />
        <TextInput
          label={t('fiscal.operationFilter')}
          value={op}
          onChange={(e) => setOp(e.currentTarget.value)}
          maxLength={64}
          w={260}
        />
        <Button type="submit">{t('fiscal.find')}</Button>
        <Button
          variant="default"
          onClick={() => {
            setStatus(ALL);
            setKind(ALL);
            setOp('');
            onSearch({});
          }}
        >
          {t('fiscal.reset')}
        </Button>
      </Group>
    </form>
  );
}

export default function Receipts() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const { mode } = useMode();
  const can = useCan();
  const queries = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const [sending, setSending] = useState<string | null>(null);
  const list = useInfiniteQuery({
    queryKey: ['receipts', mode, filter],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/v2/receipts', {
          params: { query: { mode, limit: PAGE, ...filter, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const retry = useMutation({
    mutationFn: (r: Receipt) =>
      unwrap(api.POST('/v2/receipts/{id}/retry', { params: { path: { id: r.id }, query: { mode } } })),
    onSuccess: () => {
      notify(t('fiscal.retried'));
      void queries.invalidateQueries({ queryKey: ['receipts'] });
    },
  });
  const rows = list.data?.pages.flatMap((p) => p.data);
  return (
    <Page title={t('fiscal.receipts')}>
      <FiscalTabs />
      <Filters
        key={params.toString()}
        value={filter}
        onSearch={(f) => setParams(new URLSearchParams(f as Record<string, string>))}
      />
      <ErrorAlert error={list.error ?? retry.error} />
      <Rows
        testId="receipts-table"
        rows={rows}
        rowKey={(r) => r.id}
        minWidth={1000}
        columns={[
          {
            label: t('fiscal.kind'),
            cell: (r) => (
              <Group gap={6} wrap="nowrap">
                <Text size="sm" fw={600}>
                  {word('receipt_kind', r.kind)}
                </Text>
                {r.offline && (
                  <Badge color="yellow.9" variant="outline" size="sm" title={t('fiscal.offlineHint')}>
                    {t('fiscal.offline')}
                  </Badge>
                )}
              </Group>
            ),
          },
          { label: t('common.status'), cell: (r) => <StatusBadge status={r.status} kind="receipt_status" /> },
          { label: t('common.amount'), cell: (r) => tenge(r.amount), align: 'right' },
          {
            label: t('fiscal.operation'),
            cell: (r) => (
              <Anchor component={Link} to={`/payments/${r.operation_id}`} ff="monospace" size="sm">
                {r.operation_id}
              </Anchor>
            ),
          },
          { label: t('fiscal.fiscalSign'), cell: (r) => <Text ff="monospace">{r.fiscal_sign ?? '—'}</Text> },
          { label: t('fiscal.shift'), cell: (r) => (r.shift_number === null ? '—' : `№ ${r.shift_number}`) },
          { label: t('fiscal.issuedAt'), cell: (r) => dateTime(r.issued_at, i18n.language) },
          { label: t('fiscal.error'), cell: (r) => <ReceiptError error={r.error} /> },
          {
            label: t('common.actions'),
            card: 'actions',
            cell: (r) => (
              <Group gap="xs" wrap="wrap">
                <CheckLink url={r.check_url} />
                {r.status === 'failed' && can('fiscal.operate') && (
                  <Button
                    size="xs"
                    variant="default"
                    loading={retry.isPending && retry.variables?.id === r.id}
                    onClick={() => retry.mutate(r)}
                  >
                    {t('fiscal.retry')}
                  </Button>
                )}
                {r.status === 'issued' && can('receipts.send') && (
                  <Button size="xs" variant="default" onClick={() => setSending(r.id)}>
                    {t('fiscal.send')}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      {list.hasNextPage && (
        <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          {t('common.more')}
        </Button>
      )}
      <Dialog opened={sending !== null} onClose={() => setSending(null)} title={t('fiscal.sendTitle')}>
        {sending && <ReceiptSend receiptId={sending} onDone={() => setSending(null)} />}
      </Dialog>
    </Page>
  );
}
