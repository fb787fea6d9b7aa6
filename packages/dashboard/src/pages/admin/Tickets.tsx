// Every client's tickets: answered from here (the client gets the answer by e-mail), or closed.
import { Anchor, Button, Card, Group, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import '../partner/i18n.ts';
import '../merchant/i18n-more.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime } from '../../format.ts';

function Ticket({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const queries = useQueryClient();
  const [body, setBody] = useState('');
  const params = { path: { id } };
  const ticket = useQuery({
    queryKey: ['admin-ticket', id],
    queryFn: () => unwrap(api.GET('/admin/tickets/{id}', { params })),
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['admin-ticket', id] });
  const answer = useMutation({
    mutationFn: () => unwrap(api.POST('/admin/tickets/{id}/messages', { params, body: { body } })),
    onSuccess: () => {
      setBody('');
      refresh();
    },
  });
  const close = useMutation({
    mutationFn: () => unwrap(api.PATCH('/admin/tickets/{id}', { params, body: { status: 'closed' } })),
    onSuccess: refresh,
  });
  return (
    <Page
      title={ticket.data?.subject ?? ''}
      actions={
        <Anchor component={Link} to="/admin/tickets">
          {t('common.back')}
        </Anchor>
      }
    >
      <ErrorAlert error={ticket.error ?? answer.error ?? close.error} />
      {ticket.data?.messages.map((m) => (
        <Card key={m.id} withBorder>
          <Text size="xs" c="dimmed">
            {m.author_name} · {dateTime(m.created_at, i18n.language)}
          </Text>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{m.body}</Text>
        </Card>
      ))}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          answer.mutate();
        }}
      >
        <Stack>
          <Textarea label={t('tickets.reply')} required value={body} onChange={(e) => setBody(e.currentTarget.value)} />
          <Group>
            <Button type="submit" loading={answer.isPending}>
              {t('tickets.send')}
            </Button>
            <Button variant="default" onClick={() => close.mutate()}>
              {t('admin.close')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Page>
  );
}

export default function AdminTickets() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const list = useQuery({
    queryKey: ['admin-tickets'],
    queryFn: () => unwrap(api.GET('/admin/tickets', { params: { query: { limit: 100 } } })),
    enabled: !id,
  });
  if (id) return <Ticket id={id} />;
  return (
    <Page title={t('anav.tickets')}>
      <ErrorAlert error={list.error} />
      <Rows
        testId="admin-tickets"
        rows={list.data?.data}
        rowKey={(x) => x.id}
        columns={[
          {
            label: t('tickets.subject'),
            cell: (x) => (
              <Anchor component={Link} to={`/admin/tickets/${x.id}`}>
                {x.subject}
              </Anchor>
            ),
          },
          { label: t('money.client'), cell: (x) => x.client_id },
          { label: t('common.status'), cell: (x) => <StatusBadge status={x.status} kind="ticket_status" /> },
          { label: t('common.created'), cell: (x) => dateTime(x.created_at, i18n.language) },
        ]}
      />
    </Page>
  );
}
