// The shop's consent to its partner (decisions 17, 21): whether the partner that brought it may act in the
// account, and the last entries it made. Shown to the owner (impersonation.manage) of a shop that has a
// partner; turning it off ends the partner's open sessions at once.
import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './i18n-guide.ts';
import { api, unwrap } from '../../api/client.ts';
import { useCan } from '../../api/me.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { notify } from '../../components/notify.ts';
import { Rows } from '../../components/Rows.tsx';
import { dateTime } from '../../format.ts';

const KEY = ['guide', 'integrations'];

export function PartnerAccess() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const queries = useQueryClient();
  const owner = can('impersonation.manage');
  const board = useQuery({ queryKey: KEY, queryFn: () => unwrap(api.GET('/me/integrations')), enabled: owner });
  const partner = board.data?.data.find((i) => i.id === 'partner')?.details as
    | { partner_name: string | null; impersonation_allowed: boolean }
    | undefined;
  const sessions = useQuery({
    queryKey: ['partner-sessions'],
    queryFn: () => unwrap(api.GET('/me/partner-impersonation/sessions', { params: { query: { limit: 5 } } })),
    enabled: owner && Boolean(partner?.partner_name),
  });
  const set = useMutation({
    mutationFn: (allow: boolean) => unwrap(api.PATCH('/me/allow-partner-impersonation', { body: { allow } })),
    onSuccess: (r) => {
      notify(r.allow ? t('access.allowed') : t('access.forbidden', { count: r.ended_sessions }));
      void queries.invalidateQueries({ queryKey: KEY });
      void queries.invalidateQueries({ queryKey: ['partner-sessions'] });
    },
  });
  if (!owner || !partner?.partner_name) return <ErrorAlert error={board.error} />;
  return (
    <Card withBorder data-testid="partner-access">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('access.title')}
        </Title>
        <Text size="sm">{t('access.partner', { name: partner.partner_name })}</Text>
        <Switch
          checked={partner.impersonation_allowed}
          disabled={set.isPending}
          onChange={(e) => set.mutate(e.currentTarget.checked)}
          label={t('access.allow', { name: partner.partner_name })}
          description={t('access.what')}
        />
        <ErrorAlert error={set.error ?? sessions.error} />
        {sessions.data && sessions.data.data.length > 0 && (
          <>
            <Text size="sm" fw={600}>
              {t('access.sessions')}
            </Text>
            <Rows
              testId="partner-sessions"
              minWidth={480}
              rows={sessions.data.data}
              rowKey={(s) => s.id}
              columns={[
                { label: t('access.who'), cell: (s) => s.actor_email },
                { label: t('access.started'), cell: (s) => dateTime(s.started_at, i18n.language) },
                { label: t('access.requests'), cell: (s) => s.requests, align: 'right' },
              ]}
            />
          </>
        )}
      </Stack>
    </Card>
  );
}
