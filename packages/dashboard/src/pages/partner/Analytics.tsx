// Partner analytics: the period's summary, the funnel of its new clients, and income by day, week or month.
import { Card, Group, SimpleGrid, Text } from '@mantine/core';
import { AreaChart, BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n.ts';
import { api, unwrap } from '../../api/client.ts';
import { ChoiceTabs } from '../../components/ChoiceTabs.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { day, tenge } from '../../format.ts';
import { useWords } from '../../components/words.ts';

const PERIODS = ['7d', '30d', '90d', '365d', 'all'] as const;
const INTERVALS = ['day', 'week', 'month'] as const;

export default function Analytics() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>('30d');
  const [interval, setInterval] = useState<(typeof INTERVALS)[number]>('day');
  const summary = useQuery({
    queryKey: ['pa-summary', period],
    queryFn: () => unwrap(api.GET('/partner/analytics/summary', { params: { query: { period } } })),
  });
  const funnel = useQuery({
    queryKey: ['pa-funnel', period],
    queryFn: () => unwrap(api.GET('/partner/analytics/funnel', { params: { query: { period } } })),
  });
  const income = useQuery({
    queryKey: ['pa-income', period, interval],
    queryFn: () => unwrap(api.GET('/partner/analytics/income-graph', { params: { query: { period, interval } } })),
  });
  const s = summary.data;
  const stat = (label: string, value: string | number | undefined) => (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value ?? '…'}
      </Text>
    </Card>
  );
  return (
    <Page title={t('pa.title')}>
      <Group>
        <ChoiceTabs
          aria-label={t('pa.period')}
          value={period}
          onChange={(v) => setPeriod(v as typeof period)}
          data={PERIODS.map((p) => ({ value: p, label: t(`pa.p.${p}`) }))}
        />
        <ChoiceTabs
          aria-label={t('pa.interval')}
          value={interval}
          onChange={(v) => setInterval(v as typeof interval)}
          data={INTERVALS.map((i) => ({ value: i, label: t(`pa.i.${i}`) }))}
        />
      </Group>
      <ErrorAlert error={summary.error ?? funnel.error ?? income.error} />
      <SimpleGrid cols={{ base: 2, md: 3 }} data-testid="pa-summary">
        {stat(t('pa.clients_total'), s?.clients_total)}
        {stat(t('pa.clients_new'), s?.clients_new)}
        {stat(t('pa.clients_active'), s?.clients_active)}
        {stat(t('pa.clients_paying'), s?.clients_paying)}
        {stat(t('pa.revenue'), s ? tenge(s.revenue_kzt) : undefined)}
        {stat(t('pa.commissions'), s ? tenge(s.commissions_kzt) : undefined)}
      </SimpleGrid>
      <Card withBorder data-testid="pa-funnel">
        <Text fw={600} mb="sm">
          {t('pa.funnel')}
        </Text>
        {funnel.data && (
          <BarChart
            h={240}
            data={funnel.data.map((f) => ({ step: word('funnel_step', f.step), value: f.value }))}
            dataKey="step"
            series={[{ name: 'value', label: t('pa.clients_total'), color: 'blue.8' }]}
          />
        )}
      </Card>
      <Card withBorder data-testid="pa-income">
        <Text fw={600} mb="sm">
          {t('pa.income')}
        </Text>
        {income.data && (
          <AreaChart
            h={240}
            data={income.data.data.map((d) => ({
              date: day(`${d.date}T12:00:00Z`, i18n.language),
              commissions: d.commissions_kzt,
              revenue: d.revenue_kzt,
            }))}
            dataKey="date"
            valueFormatter={(v) => tenge(v)}
            // Room for "180 000 ₸": recharts' default 60 px cuts the first digits off.
            yAxisProps={{ width: 84 }}
            series={[
              { name: 'revenue', label: t('pa.revenue'), color: 'blue.8' },
              { name: 'commissions', label: t('pa.commissions'), color: 'green.9' },
            ]}
          />
        )}
      </Card>
    </Page>
  );
}
