// Partner applications and partners by status: approve, reject, suspend.
import { Button, Group } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../partner/i18n.ts';
import { api, unwrap } from '../../api/client.ts';
import { ChoiceTabs } from '../../components/ChoiceTabs.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime } from '../../format.ts';
import { useWords } from '../../components/words.ts';

const STATUSES = ['pending', 'active', 'suspended', 'rejected'] as const;

export default function Partners() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const queries = useQueryClient();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('pending');
  const list = useQuery({
    queryKey: ['admin-partners', status],
    queryFn: () => unwrap(api.GET('/admin/partners', { params: { query: { status, limit: 100 } } })),
  });
  const move = useMutation({
    mutationFn: (v: { id: number; action: 'approve' | 'reject' | 'suspend' }) =>
      unwrap(api.POST(`/admin/partners/{id}/${v.action}`, { params: { path: { id: String(v.id) } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['admin-partners'] }),
  });
  return (
    <Page title={t('anav.partners')}>
      <ChoiceTabs
        aria-label={t('common.status')}
        value={status}
        onChange={(v) => setStatus(v as typeof status)}
        data={STATUSES.map((s) => ({ value: s, label: word('partner_status', s) }))}
      />
      <ErrorAlert error={list.error ?? move.error} />
      <Rows
        testId="admin-partners"
        rows={list.data?.data}
        rowKey={(p) => p.id}
        columns={[
          { label: t('partner.company'), cell: (p) => p.company_name },
          { label: t('partner.website'), cell: (p) => p.website ?? '—' },
          { label: t('common.status'), cell: (p) => <StatusBadge status={p.status} kind="partner_status" /> },
          { label: t('common.created'), cell: (p) => dateTime(p.created_at, i18n.language) },
          {
            label: t('common.actions'),
            cell: (p) => (
              <Group gap="xs">
                {p.status !== 'active' && (
                  <Button size="xs" onClick={() => move.mutate({ id: p.id, action: 'approve' })}>
                    {t('admin.approve')}
                  </Button>
                )}
                {p.status === 'pending' && (
                  <Button size="xs" variant="default" onClick={() => move.mutate({ id: p.id, action: 'reject' })}>
                    {t('admin.reject')}
                  </Button>
                )}
                {p.status === 'active' && (
                  <Button size="xs" variant="default" onClick={() => move.mutate({ id: p.id, action: 'suspend' })}>
                    {t('admin.suspend')}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
    </Page>
  );
}
