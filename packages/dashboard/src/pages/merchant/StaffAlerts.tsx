// The signed-in member's own staff alerts (decisions 28), per mode: paid, refunded and failed-receipt alerts
// and the daily summary at a local hour, by e-mail and/or the bound messenger chat. Each switch saves at
// once (PATCH with that field alone). A partner acting in the account sees them and cannot change them.
import { Card, Fieldset, NativeSelect, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { paths } from '@tolem/sdk';
import './i18n-alerts.ts';
import { api, unwrap } from '../../api/client.ts';
import { useCan } from '../../api/me.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { notify } from '../../components/notify.ts';
import { useMode, type Mode } from '../../mode.tsx';

type Patch = NonNullable<paths['/me/notification-settings']['patch']['requestBody']>['content']['application/json'];
const EVENTS = ['payment_paid', 'refund_completed', 'receipt_failed'] as const;
const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, '0')}:00` }));

function AlertSwitches({ mode }: { mode: Mode }) {
  const { t } = useTranslation();
  const can = useCan();
  const queries = useQueryClient();
  const key = ['notification-settings', mode];
  const q = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/me/notification-settings', { params: { query: { mode } } })),
  });
  const save = useMutation({
    mutationFn: (body: Patch) => unwrap(api.PATCH('/me/notification-settings', { params: { query: { mode } }, body })),
    onSuccess: (s) => {
      queries.setQueryData(key, s);
      notify(t('alerts.saved'));
    },
  });
  const s = q.data;
  const locked = !can('account.notification_settings') || save.isPending;
  if (!s) return <ErrorAlert error={q.error} />;
  return (
    <Stack gap="sm" data-testid={`alerts-${mode}`}>
      {!s.customized && (
        <Text size="sm" c="dimmed">
          {t('alerts.defaults')}
        </Text>
      )}
      <Fieldset legend={t('alerts.what')}>
        <Stack gap="xs">
          {EVENTS.map((e) => (
            <Switch
              key={e}
              label={t(`alerts.${e}`)}
              checked={s[e]}
              disabled={locked}
              onChange={(ev) => save.mutate({ [e]: ev.currentTarget.checked })}
            />
          ))}
          <Switch
            label={t('alerts.daily_summary')}
            description={t('alerts.summaryHint')}
            checked={s.daily_summary}
            disabled={locked}
            onChange={(ev) => save.mutate({ daily_summary: ev.currentTarget.checked })}
          />
          {/* A native list: every screen reader and phone knows it, and 24 hours need no search. */}
          <NativeSelect
            label={t('alerts.hour')}
            data={HOURS}
            value={String(s.summary_hour)}
            disabled={locked || !s.daily_summary}
            onChange={(ev) => save.mutate({ summary_hour: Number(ev.currentTarget.value) })}
            maw={240}
          />
        </Stack>
      </Fieldset>
      <Fieldset legend={t('alerts.how')}>
        <Stack gap="xs">
          <Switch
            label={t('alerts.email')}
            checked={s.email}
            disabled={locked}
            onChange={(ev) => save.mutate({ email: ev.currentTarget.checked })}
          />
          <Switch
            label={t('alerts.messenger')}
            description={s.messenger && !s.messenger_linked ? t('alerts.messengerNotLinked') : undefined}
            checked={s.messenger}
            disabled={locked}
            onChange={(ev) => save.mutate({ messenger: ev.currentTarget.checked })}
          />
        </Stack>
      </Fieldset>
      {!can('account.notification_settings') && (
        <Text size="sm" c="dimmed">
          {t('alerts.blocked')}
        </Text>
      )}
      <ErrorAlert error={save.error} />
    </Stack>
  );
}

export function StaffAlerts() {
  const { t } = useTranslation();
  const { mode: shown } = useMode();
  const [mode, setMode] = useState<Mode>(shown);
  return (
    <Card withBorder maw={480} data-testid="alerts-card">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('alerts.title')}
        </Title>
        <Text size="sm">{t('alerts.intro')}</Text>
        <SegmentedControl
          aria-label={t('alerts.mode')}
          value={mode}
          onChange={(v) => setMode(v as Mode)}
          data={[
            { value: 'live', label: t('alerts.live') },
            { value: 'test', label: t('alerts.test') },
          ]}
        />
        <AlertSwitches key={mode} mode={mode} />
      </Stack>
    </Card>
  );
}
