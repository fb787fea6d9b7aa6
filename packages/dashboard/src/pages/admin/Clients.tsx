// Client search across the operator's clients (name or e-mail), with disabling and enabling an account.
import { Button, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../partner/i18n.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { dateTime } from '../../format.ts';
import { useWords } from '../../components/words.ts';

export default function AdminClients() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const queries = useQueryClient();
  const [q, setQ] = useState('');
  const list = useQuery({
    queryKey: ['admin-clients', q],
    queryFn: () => unwrap(api.GET('/admin/clients', { params: { query: { limit: 100, ...(q ? { q } : {}) } } })),
  });
  const toggle = useMutation({
    mutationFn: (v: { id: number; disabled: boolean }) =>
      unwrap(
        api.PATCH('/admin/clients/{id}', { params: { path: { id: String(v.id) } }, body: { disabled: v.disabled } }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['admin-clients'] }),
  });
  return (
    <Page title={t('anav.clients')}>
      <TextInput
        label={t('admin.search')}
        type="search"
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        maw={360}
      />
      <ErrorAlert error={list.error ?? toggle.error} />
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
            cell: (c) => (
              <Button size="xs" variant="default" onClick={() => toggle.mutate({ id: c.id, disabled: !c.disabled })}>
                {c.disabled ? t('admin.enable') : t('admin.disable')}
              </Button>
            ),
          },
        ]}
      />
    </Page>
  );
}
