// The balance (available and pending), its ledger, and the commissions earned on the clients' plans.
import { Card, SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './i18n.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime, tenge } from '../../format.ts';
import { useWords } from '../../components/words.ts';

export default function Money() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const balance = useQuery({ queryKey: ['balance'], queryFn: () => unwrap(api.GET('/partner/balance')) });
  const ledger = useQuery({
    queryKey: ['ledger'],
    queryFn: () => unwrap(api.GET('/partner/balance/transactions', { params: { query: { limit: 100 } } })),
  });
  const commissions = useQuery({
    queryKey: ['commissions'],
    queryFn: () => unwrap(api.GET('/partner/commissions', { params: { query: { limit: 100 } } })),
  });
  return (
    <Page title={t('money.title')}>
      <ErrorAlert error={balance.error ?? ledger.error ?? commissions.error} />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Card withBorder>
          <Text c="dimmed" size="sm">
            {t('money.available')}
          </Text>
          <Text fw={700} size="xl">
            {tenge(balance.data?.available_kzt)}
          </Text>
        </Card>
        <Card withBorder>
          <Text c="dimmed" size="sm">
            {t('money.pending')}
          </Text>
          <Text fw={700} size="xl">
            {tenge(balance.data?.pending_kzt)}
          </Text>
        </Card>
      </SimpleGrid>
      <Text fw={600}>{t('money.commissions')}</Text>
      <Rows
        rows={commissions.data?.data}
        rowKey={(c) => c.id}
        columns={[
          { label: t('money.client'), cell: (c) => c.client_name },
          { label: t('pclients.plan'), cell: (c) => word('plan', c.plan) },
          { label: t('common.amount'), cell: (c) => tenge(c.amount), align: 'right' },
          { label: t('common.status'), cell: (c) => <StatusBadge status={c.status} kind="commission_status" /> },
          { label: t('common.created'), cell: (c) => dateTime(c.created_at, i18n.language) },
        ]}
      />
      <Text fw={600}>{t('money.transactions')}</Text>
      <Rows
        rows={ledger.data?.data}
        rowKey={(x) => x.id}
        columns={[
          { label: t('money.type'), cell: (x) => word('ledger_type', x.type) },
          { label: t('common.amount'), cell: (x) => tenge(x.amount), align: 'right' },
          { label: t('money.available'), cell: (x) => tenge(x.available_after), align: 'right' },
          { label: t('common.created'), cell: (x) => dateTime(x.created_at, i18n.language) },
        ]}
      />
    </Page>
  );
}
