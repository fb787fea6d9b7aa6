// A register's shifts, newest first (cursor pages): when each opened and closed, and its Z-report's totals.
import { Anchor, Button } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { dateTime } from '../../format.ts';
import { useMode } from '../../mode.tsx';
import { FiscalTabs, registerName, ZTotals } from './fiscal-parts.tsx';

export default function FiscalShifts() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const { mode } = useMode();
  const register = useQuery({
    queryKey: ['fiscal-registers', mode, id],
    queryFn: () => unwrap(api.GET('/me/fiscal/registers/{id}', { params: { path: { id }, query: { mode } } })),
  });
  const shifts = useInfiniteQuery({
    queryKey: ['fiscal-shifts', mode, id],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/me/fiscal/registers/{id}/shifts', {
          params: { path: { id }, query: { mode, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const rows = shifts.data?.pages.flatMap((p) => p.data);
  const name = register.data ? registerName(register.data) : id;
  return (
    <Page
      title={t('fiscal.shiftsOf', { name })}
      actions={
        <Anchor component={Link} to="/fiscal">
          {t('common.back')}
        </Anchor>
      }
    >
      <FiscalTabs />
      <ErrorAlert error={register.error ?? shifts.error} />
      <Rows
        testId="shifts-table"
        rows={rows}
        rowKey={(s) => s.number}
        minWidth={600}
        columns={[
          { label: t('fiscal.shift'), cell: (s) => `№ ${s.number}` },
          { label: t('fiscal.opened'), cell: (s) => dateTime(s.opened_at, i18n.language) },
          {
            label: t('fiscal.closed'),
            cell: (s) => (s.closed_at ? dateTime(s.closed_at, i18n.language) : t('fiscal.stillOpen')),
          },
          {
            label: t('fiscal.zTotals'),
            card: 'wide',
            cell: (s) => (s.z_report ? <ZTotals z={s.z_report} /> : '—'),
          },
        ]}
      />
      {shifts.hasNextPage && (
        <Button variant="default" onClick={() => void shifts.fetchNextPage()} loading={shifts.isFetchingNextPage}>
          {t('common.more')}
        </Button>
      )}
    </Page>
  );
}
