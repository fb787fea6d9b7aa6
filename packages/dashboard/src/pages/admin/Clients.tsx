// Client search across the operator's clients (name or e-mail), with disabling and enabling an account.
// Disabling asks first, naming the client and what stops; the admin's own client and the platform client
// are not offered (the API refuses them too: cannot_disable_self, cannot_disable_platform_client).
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../partner/i18n.ts';
import '../merchant/i18n-guide.ts';
import { api, unwrap } from '../../api/client.ts';
import { useMe } from '../../api/me.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { dateTime } from '../../format.ts';
import { useWords } from '../../components/words.ts';

interface Target {
  id: number;
  name: string;
  email: string;
}

export default function AdminClients() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const queries = useQueryClient();
  const me = useMe();
  const [q, setQ] = useState('');
  const [confirming, setConfirming] = useState<Target | null>(null);
  const list = useQuery({
    queryKey: ['admin-clients', q],
    queryFn: () => unwrap(api.GET('/admin/clients', { params: { query: { limit: 100, ...(q ? { q } : {}) } } })),
  });
  const toggle = useMutation({
    mutationFn: (v: { id: number; disabled: boolean }) =>
      unwrap(
        api.PATCH('/admin/clients/{id}', { params: { path: { id: String(v.id) } }, body: { disabled: v.disabled } }),
      ),
    onSuccess: () => {
      setConfirming(null);
      void queries.invalidateQueries({ queryKey: ['admin-clients'] });
    },
  });
  // GET /me's id is the client of the signed-in admin.
  const ownId = me.data?.id;
  return (
    <Page title={t('anav.clients')}>
      <TextInput
        label={t('admin.search')}
        type="search"
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        maw={360}
      />
      <ErrorAlert error={list.error ?? (confirming ? null : toggle.error)} />
      <Rows
        testId="admin-clients"
        rows={list.data?.data}
        rowKey={(c) => c.id}
        columns={[
          { label: t('pclients.name'), cell: (c) => c.name },
          { label: t('auth.email'), cell: (c) => c.email },
          { label: t('pclients.plan'), cell: (c) => word('plan', c.plan) },
          { label: t('common.created'), cell: (c) => dateTime(c.created_at, i18n.language) },
          {
            label: t('common.actions'),
            cell: (c) =>
              c.disabled ? (
                <Button size="xs" variant="default" onClick={() => toggle.mutate({ id: c.id, disabled: false })}>
                  {t('admin.enable')}
                </Button>
              ) : c.is_platform || c.id === ownId ? (
                <Text size="xs" c="dimmed">
                  {c.is_platform ? t('aclients.platform') : t('aclients.own')}
                </Text>
              ) : (
                <Button
                  size="xs"
                  variant="default"
                  color="red"
                  onClick={() => {
                    toggle.reset();
                    setConfirming({ id: c.id, name: c.name, email: c.email });
                  }}
                >
                  {t('admin.disable')}
                </Button>
              ),
          },
        ]}
      />
      <Dialog opened={confirming !== null} onClose={() => setConfirming(null)} title={t('aclients.confirmTitle')}>
        {confirming && (
          <Stack>
            <Text size="sm" data-testid="disable-what">
              {t('aclients.confirmBody', { name: confirming.name, email: confirming.email })}
            </Text>
            <ErrorAlert error={toggle.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                {t('common.cancel')}
              </Button>
              <Button
                color="red"
                loading={toggle.isPending}
                onClick={() => toggle.mutate({ id: confirming.id, disabled: true })}
              >
                {t('aclients.confirm', { name: confirming.name })}
              </Button>
            </Group>
          </Stack>
        )}
      </Dialog>
    </Page>
  );
}
