// Referral links: each with its public /r/{code} address, clicks and registrations; switched off or on,
// or deleted.
import { Button, Group, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n.ts';
import { api, unwrap } from '../../api/client.ts';
import { Copy } from '../../components/Copy.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';

export default function ReferralLinks() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const list = useQuery({
    queryKey: ['referral-links'],
    queryFn: () => unwrap(api.GET('/partner/links', { params: { query: { limit: 100 } } })),
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['referral-links'] });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/partner/links', { body: name ? { name } : {} })),
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (v: { id: number; on: boolean }) =>
      unwrap(api.PATCH('/partner/links/{id}', { params: { path: { id: String(v.id) } }, body: { is_active: v.on } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/partner/links/{id}', { params: { path: { id: String(id) } } })),
    onSuccess: refresh,
  });
  return (
    <Page title={t('plinks.title')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Group align="end">
          <TextInput label={t('plinks.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Button type="submit" loading={create.isPending}>
            {t('plinks.new')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={list.error ?? create.error ?? toggle.error ?? remove.error} />
      <Rows
        testId="referral-links"
        rows={list.data?.data}
        rowKey={(l) => l.id}
        columns={[
          { label: t('plinks.name'), cell: (l) => l.name ?? l.code },
          {
            label: t('links.url'),
            card: 'wide',
            // The address as text (a phone breaks it anywhere), and a button that copies it.
            cell: (l) => (
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} data-testid="referral-url">
                  {l.url}
                </Text>
                <Copy value={l.url} variant="default" />
              </Group>
            ),
          },
          { label: t('plinks.clicks'), cell: (l) => l.clicks, align: 'right' },
          { label: t('plinks.registrations'), cell: (l) => l.registrations, align: 'right' },
          {
            label: t('common.actions'),
            cell: (l) => (
              <Group gap="xs">
                <Button size="xs" variant="default" onClick={() => toggle.mutate({ id: l.id, on: !l.is_active })}>
                  {l.is_active ? t('plinks.deactivate') : t('plinks.activate')}
                </Button>
                <Button size="xs" variant="default" onClick={() => remove.mutate(l.id)}>
                  {t('plinks.delete')}
                </Button>
              </Group>
            ),
          },
        ]}
      />
    </Page>
  );
}
