// The first steps until they are done (Checklist), then today, this month, 14 days of paid payments as a
// chart, the plan and its limit, today's API calls.
import { Card, SimpleGrid, Text, Group, Badge, Skeleton } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client.ts';
import { useMe } from '../../api/me.ts';
import { useMode } from '../../mode.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { dateWords, day, tenge } from '../../format.ts';
import { Checklist } from './Checklist.tsx';
import { useWords } from '../../components/words.ts';

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={`stat-${label}`}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}

export default function Overview() {
  const { t, i18n } = useTranslation();
  const { word, count } = useWords();
  const { mode } = useMode();
  const me = useMe();
  const stats = useQuery({
    queryKey: ['stats', mode],
    queryFn: () => unwrap(api.GET('/me/payments/stats', { params: { query: { mode } } })),
  });
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => unwrap(api.GET('/me/usage')) });
  const s = stats.data;
  // The paid plan's end, or the trial's while there is no paid plan.
  const planEnd = dateWords(me.data?.plan_expires_at ?? me.data?.trial_ends_at, i18n.language);
  return (
    <Page title={t('overview.title')}>
      <Checklist />
      <ErrorAlert error={stats.error ?? me.error} />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Stat
          label={t('overview.today')}
          value={s ? tenge(s.today.amount) : '…'}
          hint={s ? count('payments', s.today.count) : undefined}
        />
        <Stat
          label={t('overview.month')}
          value={s ? tenge(s.month.amount) : '…'}
          hint={s ? count('payments', s.month.count) : undefined}
        />
        <Stat label={t('overview.conversion')} value={s ? `${Math.round(s.conversion * 100)} %` : '…'} />
        <Stat label={t('overview.usage')} value={usage.data ? String(usage.data.today) : '…'} />
      </SimpleGrid>
      <Card withBorder>
        <Text fw={600} mb="sm">
          {t('overview.chart')}
        </Text>
        {s ? (
          <BarChart
            h={220}
            data={s.days_14.map((d) => ({ day: day(`${d.date}T12:00:00Z`, i18n.language), amount: d.amount }))}
            dataKey="day"
            series={[{ name: 'amount', label: t('common.amount'), color: 'teal.6' }]}
            valueFormatter={(v) => tenge(v)}
          />
        ) : (
          <Skeleton h={220} />
        )}
      </Card>
      {me.data && (
        <Card withBorder>
          <Group justify="space-between">
            <Text fw={600}>{t('overview.plan')}</Text>
            <Badge color={me.data.plan_active ? 'green' : 'red'} variant="dot" data-testid="overview-plan">
              {word('plan', me.data.plan)}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed" data-testid="overview-plan-until">
            {me.data.plan_active ? t('overview.planUntil', { date: planEnd }) : t('overview.planInactive')}
          </Text>
        </Card>
      )}
    </Page>
  );
}
