// One webhook: its delivery log (the answer of each: HTTP status and, for failures, the start of the
// receiver's body), retry of one delivery, a test event, switching it on or off, a new secret shown once.
// A new secret is confirmed first, with how long the old one still verifies: a receiver not updated by then
// rejects every delivery.
import { Button, Group, Stack, Card, Text, Code, Anchor, Select } from '@mantine/core';
import { useState } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import { Rows } from '../../components/Rows.tsx';
import { notify } from '../../components/notify.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { useMode } from '../../mode.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime } from '../../format.ts';
import { useWords } from '../../components/words.ts';

export default function WebhookDetail() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const { mode } = useMode();
  const id = useParams().id ?? '';
  const queries = useQueryClient();
  // Every by-id call names the mode: a webhook of the other mode is 404 (the API scopes them by mode).
  const path = { path: { id }, query: { mode } };
  const hook = useQuery({
    queryKey: ['webhook', id, mode],
    queryFn: () => unwrap(api.GET('/me/webhooks/{id}', { params: path })),
  });
  const deliveries = useQuery({
    queryKey: ['deliveries', id],
    queryFn: () =>
      unwrap(api.GET('/me/webhooks/{id}/deliveries', { params: { path: { id }, query: { mode, limit: 100 } } })),
    refetchInterval: 5000,
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['deliveries', id] });
  const test = useMutation({
    mutationFn: () => unwrap(api.POST('/me/webhooks/{id}/test', { params: path, body: {} })),
    onSuccess: (r) => {
      notify(
        `${t('webhooks.testSent')}: HTTP ${r.status_code}`,
        r.status_code >= 200 && r.status_code < 300 ? 'teal' : 'red',
      );
      refresh();
    },
  });
  const retry = useMutation({
    mutationFn: (deliveryId: number) =>
      unwrap(
        api.POST('/me/webhooks/{id}/deliveries/{delivery_id}/retry', {
          params: { path: { id, delivery_id: String(deliveryId) }, query: { mode } },
          body: {},
        }),
      ),
    onSuccess: refresh,
  });
  // Seconds the previous secret still signs (the API's default is a day).
  const [grace, setGrace] = useState<string | null>(null);
  const rotate = useMutation({
    mutationFn: (seconds: number) =>
      unwrap(api.POST('/me/webhooks/{id}/rotate-secret', { params: path, body: { grace_period_seconds: seconds } })),
  });
  const toggle = useMutation({
    mutationFn: (on: boolean) =>
      unwrap(
        on
          ? api.POST('/me/webhooks/{id}/enable', { params: path })
          : api.POST('/me/webhooks/{id}/disable', { params: path }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['webhook', id] }),
  });
  const h = hook.data;
  return (
    <Page
      title={t('webhooks.title')}
      actions={
        <Anchor component={Link} to="/webhooks">
          {t('common.back')}
        </Anchor>
      }
    >
      <ErrorAlert error={hook.error ?? test.error ?? retry.error ?? rotate.error ?? toggle.error} />
      {h && (
        <Card withBorder>
          <Stack gap="xs">
            <Code style={{ wordBreak: 'break-all' }}>{h.url}</Code>
            <Text size="sm">{h.events.map((e) => word('event_type', e)).join(', ')}</Text>
            <Group>
              <Button variant="light" onClick={() => test.mutate()} loading={test.isPending}>
                {t('webhooks.test')}
              </Button>
              <Button variant="default" onClick={() => toggle.mutate(!h.is_active)}>
                {h.is_active ? t('webhooks.disable') : t('webhooks.enable')}
              </Button>
              <Button variant="default" onClick={() => setGrace('86400')} loading={rotate.isPending}>
                {t('webhooks.rotate')}
              </Button>
            </Group>
            {rotate.data && <ShownOnce label={t('webhooks.secret')} value={rotate.data.secret} />}
            <Dialog opened={grace !== null} onClose={() => setGrace(null)} title={t('webhooks.rotateTitle')}>
              <Stack>
                <Select
                  label={t('webhooks.rotateGrace')}
                  value={grace}
                  onChange={setGrace}
                  allowDeselect={false}
                  data={[
                    { value: '0', label: t('webhooks.graceNone') },
                    { value: '3600', label: t('webhooks.graceHour') },
                    { value: '86400', label: t('webhooks.graceDay') },
                    { value: '604800', label: t('webhooks.graceWeek') },
                  ]}
                />
                <Text size="sm">{grace === '0' ? t('webhooks.rotateNow') : t('webhooks.rotateText')}</Text>
                <Group justify="flex-end">
                  <Button variant="default" onClick={() => setGrace(null)}>
                    {t('common.cancel')}
                  </Button>
                  <Button
                    onClick={() => {
                      const seconds = Number(grace);
                      setGrace(null);
                      rotate.mutate(seconds);
                    }}
                  >
                    {t('webhooks.rotateConfirm')}
                  </Button>
                </Group>
              </Stack>
            </Dialog>
          </Stack>
        </Card>
      )}
      <Text fw={600}>{t('webhooks.deliveries')}</Text>
      <Rows
        testId="deliveries-table"
        rows={deliveries.data?.data}
        rowKey={(d) => d.id}
        columns={[
          { label: t('webhooks.events'), cell: (d) => word('event_type', d.event_type) },
          { label: t('common.status'), cell: (d) => <StatusBadge status={d.status} kind="delivery_status" /> },
          {
            label: t('webhooks.response'),
            card: 'wide',
            cell: (d) => (
              <>
                <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {d.last_status ? `HTTP ${d.last_status}` : ''}
                  {d.last_error ? ` ${d.last_error}` : ''}
                </Text>
                {d.response_preview ? (
                  // The receiver's answer (first 500 characters), two lines of it; all of it on hover.
                  <Text
                    size="xs"
                    ff="monospace"
                    c="dimmed"
                    lineClamp={2}
                    title={d.response_preview}
                    style={{ overflowWrap: 'anywhere' }}
                    data-testid="delivery-response"
                  >
                    {d.response_preview}
                  </Text>
                ) : null}
              </>
            ),
          },
          { label: t('webhooks.attempts'), cell: (d) => d.attempts },
          { label: t('common.created'), cell: (d) => dateTime(d.created_at, i18n.language) },
          {
            label: '',
            card: 'actions',
            cell: (d) => (
              <Button size="xs" variant="subtle" onClick={() => retry.mutate(d.id)}>
                {t('webhooks.retry')}
              </Button>
            ),
          },
        ]}
      />
    </Page>
  );
}
