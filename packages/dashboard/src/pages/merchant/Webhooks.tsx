// Webhooks of the mode: each with its last delivery; a new one shows its signing secret once.
import { Button, TextInput, MultiSelect, Stack, Anchor, Badge } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { useMode } from '../../mode.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Rows } from '../../components/Rows.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime } from '../../format.ts';
import { useWords } from '../../components/words.ts';

export const EVENT_TYPES = ['payment.completed', 'payment.cancelled', 'payment.expired', 'payment.refunded'];

function CreateWebhook() {
  const { t } = useTranslation();
  const { word } = useWords();
  const { mode } = useMode();
  const queries = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(EVENT_TYPES);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/me/webhooks', { params: { query: { mode } }, body: { url, events } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  if (create.data) return <ShownOnce label={t('webhooks.secret')} value={create.data.secret} />;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Stack>
        <TextInput
          label={t('webhooks.url')}
          type="url"
          required
          placeholder="https://example.kz/hooks/tolem"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
        />
        <MultiSelect
          label={t('webhooks.events')}
          data={EVENT_TYPES.map((e) => ({ value: e, label: word('event_type', e) }))}
          value={events}
          onChange={setEvents}
          required
        />
        <ErrorAlert error={create.error} />
        <Button type="submit" loading={create.isPending}>
          {t('common.create')}
        </Button>
      </Stack>
    </form>
  );
}

export default function Webhooks() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const { mode } = useMode();
  const [opened, { open, close }] = useDisclosure();
  const hooks = useQuery({
    queryKey: ['webhooks', mode],
    queryFn: () => unwrap(api.GET('/me/webhooks', { params: { query: { mode } } })),
  });
  return (
    <Page title={t('webhooks.title')} actions={<Button onClick={open}>{t('webhooks.new')}</Button>}>
      <Dialog opened={opened} onClose={close} title={t('webhooks.new')}>
        {opened && <CreateWebhook />}
      </Dialog>
      <ErrorAlert error={hooks.error} />
      <Rows
        testId="webhooks-table"
        rows={hooks.data?.data}
        rowKey={(h) => h.id}
        minWidth={600}
        columns={[
          {
            label: t('webhooks.url'),
            cell: (h) => (
              <Anchor component={Link} to={`/webhooks/${h.id}`} style={{ wordBreak: 'break-all' }}>
                {h.url}
              </Anchor>
            ),
          },
          {
            label: t('webhooks.events'),
            cell: (h) => h.events.map((e) => word('event_type', e)).join(', '),
            card: 'wide',
          },
          {
            label: t('common.status'),
            cell: (h) => (
              <Badge color={h.is_active ? 'green' : 'gray'} variant="dot">
                {h.is_active ? t('webhooks.enabled') : t('webhooks.disabled')}
              </Badge>
            ),
          },
          {
            label: t('webhooks.lastDelivery'),
            cell: (h) => (
              <>
                {h.last_delivery_status ? <LastDelivery status={h.last_delivery_status} /> : '—'}{' '}
                {dateTime(h.last_delivery_at, i18n.language)}
              </>
            ),
          },
        ]}
      />
    </Page>
  );
}

/** The last delivery's status, in the words of a delivery's. */
function LastDelivery({ status }: { status: string }) {
  return <StatusBadge status={status} kind="delivery_status" />;
}
