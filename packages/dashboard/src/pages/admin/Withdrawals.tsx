// Partners' withdrawals in processing: marked paid with the payment's reference, or rejected with a reason
// (the amount goes back to the partner's balance).
import { Button, Group, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../partner/i18n.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime, tenge } from '../../format.ts';

export default function AdminWithdrawals() {
  const { t, i18n } = useTranslation();
  const queries = useQueryClient();
  const [note, setNote] = useState<Record<number, string>>({});
  const list = useQuery({
    queryKey: ['admin-withdrawals'],
    queryFn: () => unwrap(api.GET('/admin/withdrawals', { params: { query: { limit: 100 } } })),
  });
  const act = useMutation({
    mutationFn: (v: { id: number; paid: boolean }) => {
      const params = { path: { id: String(v.id) } };
      return unwrap(
        v.paid
          ? api.POST('/admin/withdrawals/{id}/mark-paid', { params, body: { reference: note[v.id] ?? '' } })
          : api.POST('/admin/withdrawals/{id}/reject', { params, body: { reason: note[v.id] ?? '' } }),
      );
    },
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['admin-withdrawals'] }),
  });
  return (
    <Page title={t('anav.withdrawals')}>
      <ErrorAlert error={list.error ?? act.error} />
      <Rows
        testId="admin-withdrawals"
        rows={list.data?.data}
        rowKey={(w) => w.id}
        minWidth={980}
        columns={[
          { label: 'ID', cell: (w) => <span style={{ whiteSpace: 'nowrap' }}>W-{w.id}</span> },
          { label: t('partner.company'), cell: (w) => w.partner_name },
          { label: t('common.amount'), cell: (w) => tenge(w.amount), align: 'right' },
          { label: t('common.status'), cell: (w) => <StatusBadge status={w.status} kind="withdrawal_status" /> },
          { label: t('common.created'), cell: (w) => dateTime(w.created_at, i18n.language) },
          {
            label: t('common.actions'),
            cell: (w) =>
              w.status === 'processing' && (
                <Group gap="xs">
                  <TextInput
                    size="xs"
                    aria-label={`${t('admin.reference')} / ${t('admin.reason')}`}
                    placeholder={t('admin.reference')}
                    value={note[w.id] ?? ''}
                    onChange={(e) => setNote({ ...note, [w.id]: e.currentTarget.value })}
                  />
                  <Button size="xs" onClick={() => act.mutate({ id: w.id, paid: true })}>
                    {t('admin.markPaid')}
                  </Button>
                  <Button size="xs" variant="default" onClick={() => act.mutate({ id: w.id, paid: false })}>
                    {t('admin.reject')}
                  </Button>
                </Group>
              ),
          },
        ]}
      />
    </Page>
  );
}
