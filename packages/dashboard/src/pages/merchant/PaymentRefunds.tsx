// A payment's refunds on its page: amount, status and time of each (newest first, "show more" past a page).
import { Button, Card, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Rows } from '../../components/Rows.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime, tenge } from '../../format.ts';
import './i18n-search.ts';

const PAGE = 50;

export function PaymentRefunds({ opId, mode }: { opId: string; mode: 'live' | 'test' }) {
  const { t, i18n } = useTranslation();
  const refunds = useInfiniteQuery({
    queryKey: ['payment-refunds', mode, opId],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/me/payments/{op_id}/refunds', {
          params: {
            path: { op_id: opId },
            query: { mode, limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const rows = refunds.data?.pages.flatMap((p) => p.data);
  return (
    <Card withBorder>
      <Text fw={600} mb="xs" component="h2">
        {t('refunds.title')}
      </Text>
      <ErrorAlert error={refunds.error} />
      {rows?.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('refunds.none')}
        </Text>
      ) : (
        <Rows
          testId="refunds-table"
          rows={rows}
          rowKey={(r) => r.refund_id}
          minWidth={300}
          columns={[
            { label: t('common.amount'), cell: (r) => tenge(r.amount), align: 'right' },
            { label: t('common.status'), cell: (r) => <StatusBadge status={r.status} kind="refund_status" /> },
            { label: t('refunds.time'), cell: (r) => dateTime(r.created_at, i18n.language) },
            { label: t('refunds.reason'), cell: (r) => r.reason ?? '—' },
          ]}
        />
      )}
      {refunds.hasNextPage && (
        <Button
          mt="xs"
          variant="default"
          onClick={() => void refunds.fetchNextPage()}
          loading={refunds.isFetchingNextPage}
        >
          {t('common.more')}
        </Button>
      )}
    </Card>
  );
}
