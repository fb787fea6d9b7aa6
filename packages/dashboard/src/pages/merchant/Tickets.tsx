// Support: the client's tickets, a new one, and a ticket's messages with a reply.
import { Anchor, Button, Card, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import './i18n-more.ts';
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
  const ticket = useQuery({
    queryKey: ['ticket', id],
    queryFn: () => unwrap(api.GET('/me/tickets/{id}', { params: { path: { id } } })),
  });
  const reply = useMutation({
    mutationFn: () => unwrap(api.POST('/me/tickets/{id}/messages', { params: { path: { id } }, body: { body } })),
    onSuccess: () => {
      setBody('');
      void queries.invalidateQueries({ queryKey: ['ticket', id] });
    },
  });
  return (
    <Page
      title={ticket.data?.subject ?? t('tickets.title')}
      actions={
        <Anchor component={Link} to="/tickets">
          {t('common.back')}
        </Anchor>
      }
    >
      <ErrorAlert error={ticket.error ?? reply.error} />
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
          reply.mutate();
        }}
      >
        <Stack>
          <Textarea label={t('tickets.reply')} required value={body} onChange={(e) => setBody(e.currentTarget.value)} />
          <Button type="submit" w="fit-content" loading={reply.isPending}>
            {t('tickets.send')}
          </Button>
        </Stack>
      </form>
    </Page>
  );
}

export default function Tickets() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const queries = useQueryClient();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const list = useQuery({
    queryKey: ['tickets'],
    queryFn: () => unwrap(api.GET('/me/tickets', { params: { query: { limit: 100 } } })),
    enabled: !id,
  });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/me/tickets', { body: { subject, body } })),
    onSuccess: () => {
      setSubject('');
      setBody('');
      void queries.invalidateQueries({ queryKey: ['tickets'] });
    },
  });
  if (id) return <Ticket id={id} />;
  return (
    <Page title={t('tickets.title')}>
      <Card withBorder>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Stack>
            <Text fw={600}>{t('tickets.new')}</Text>
            <TextInput
              label={t('tickets.subject')}
              required
              value={subject}
              onChange={(e) => setSubject(e.currentTarget.value)}
            />
            <Textarea
              label={t('tickets.body')}
              required
              value={body}
              onChange={(e) => setBody(e.currentTarget.value)}
            />
            <ErrorAlert error={create.error} />
            <Button type="submit" w="fit-content" loading={create.isPending}>
              {t('tickets.send')}
            </Button>
          </Stack>
        </form>
      </Card>
      <ErrorAlert error={list.error} />
      <Rows
        testId="tickets-table"
        rows={list.data?.data}
        rowKey={(x) => x.id}
        columns={[
          {
            label: t('tickets.subject'),
            cell: (x) => (
              <Anchor component={Link} to={`/tickets/${x.id}`}>
                {x.subject}
              </Anchor>
            ),
          },
          { label: t('common.status'), cell: (x) => <StatusBadge status={x.status} kind="ticket_status" /> },
          { label: t('common.created'), cell: (x) => dateTime(x.created_at, i18n.language) },
        ]}
      />
    </Page>
  );
}
