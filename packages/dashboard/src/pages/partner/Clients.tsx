// The partner's clients with their status, an e-mail invitation (its link shown once), and a client's
// page: its latest live payments and commissions, and entering its cabinet when it allows that.
import { Anchor, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import './i18n.ts';
import { api, unwrap } from '../../api/client.ts';
import { startActing } from '../../api/session.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime, tenge } from '../../format.ts';
import { useWords } from '../../components/words.ts';

function Client({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const c = useQuery({
    queryKey: ['partner-client', id],
    queryFn: () => unwrap(api.GET('/partner/clients/{id}', { params: { path: { id } } })),
  });
  const enter = useMutation({
    mutationFn: () => unwrap(api.POST('/partner/clients/{id}/impersonate', { params: { path: { id } } })),
    onSuccess: (r) => {
      startActing(r.access_token, r.expires_in);
      queries.clear();
      navigate('/');
    },
  });
  return (
    <Page
      title={c.data?.name ?? t('pclients.name')}
      actions={
        <Anchor component={Link} to="/partner/clients">
          {t('common.back')}
        </Anchor>
      }
    >
      <ErrorAlert error={c.error ?? enter.error} />
      {c.data && (
        <Stack>
          <Group>
            <StatusBadge status={c.data.status} kind="partner_client_status" />
            <Text>{c.data.email}</Text>
            <Text>
              {t('pclients.plan')}: {word('plan', c.data.plan)}
            </Text>
          </Group>
          {c.data.impersonation_allowed && (
            <Button w="fit-content" variant="default" onClick={() => enter.mutate()} loading={enter.isPending}>
              {t('pclients.impersonate')}
            </Button>
          )}
          <Text fw={600}>{t('pclients.payments')}</Text>
          <Rows
            rows={c.data.payments}
            rowKey={(p) => p.operation_id}
            columns={[
              { label: t('payments.operation'), cell: (p) => p.operation_id },
              { label: t('common.status'), cell: (p) => <StatusBadge status={p.status} kind="payment_status" /> },
              { label: t('common.amount'), cell: (p) => tenge(p.amount), align: 'right' },
              { label: t('common.created'), cell: (p) => dateTime(p.created_at, i18n.language) },
            ]}
          />
          <Text fw={600}>{t('pclients.commissions')}</Text>
          <Rows
            rows={c.data.commissions}
            rowKey={(x) => x.id}
            columns={[
              { label: t('pclients.plan'), cell: (x) => word('plan', x.plan) },
              { label: t('common.amount'), cell: (x) => tenge(x.amount), align: 'right' },
              { label: t('common.status'), cell: (x) => <StatusBadge status={x.status} kind="commission_status" /> },
            ]}
          />
        </Stack>
      )}
    </Page>
  );
}

export default function Clients() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const { id } = useParams();
  const [status, setStatus] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const list = useQuery({
    queryKey: ['partner-clients', status],
    queryFn: () =>
      unwrap(
        api.GET('/partner/clients', {
          params: { query: { limit: 100, ...(status ? { status: status as never } : {}) } },
        }),
      ),
    enabled: !id,
  });
  const invite = useMutation({ mutationFn: () => unwrap(api.POST('/partner/clients/invite', { body: { email } })) });
  if (id) return <Client id={id} />;
  return (
    <Page title={t('pclients.title')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate();
        }}
      >
        <Group align="end" wrap="wrap">
          <TextInput
            label={t('auth.email')}
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <Button type="submit" loading={invite.isPending}>
            {t('pclients.invite')}
          </Button>
          <Select
            label={t('common.status')}
            data={[
              { value: '', label: t('common.all') },
              ...(['pending', 'active', 'restricted'] as const).map((s) => ({
                value: s,
                label: word('partner_client_status', s),
              })),
            ]}
            value={status ?? ''}
            onChange={(v) => setStatus(v || null)}
            allowDeselect={false}
          />
        </Group>
      </form>
      {invite.data && <ShownOnce label={t('pclients.inviteLink')} value={invite.data.invite_url} />}
      <ErrorAlert error={list.error ?? invite.error} />
      <Rows
        testId="partner-clients"
        rows={list.data?.data}
        rowKey={(c) => c.id}
        columns={[
          {
            label: t('pclients.name'),
            cell: (c) => (
              <Anchor component={Link} to={`/partner/clients/${c.id}`}>
                {c.name}
              </Anchor>
            ),
          },
          { label: t('auth.email'), cell: (c) => c.email },
          { label: t('pclients.origin'), cell: (c) => word('client_origin', c.origin) },
          { label: t('common.status'), cell: (c) => <StatusBadge status={c.status} kind="partner_client_status" /> },
          { label: t('common.created'), cell: (c) => dateTime(c.created_at, i18n.language) },
        ]}
      />
    </Page>
  );
}
