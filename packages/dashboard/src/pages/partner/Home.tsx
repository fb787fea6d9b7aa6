// The partner programme: apply (when this account has no profile), or the profile with its status; until
// an administrator approves it, the other partner pages answer partner_not_active. Once approved, the page
// says so and points to the first steps (the approval also leaves a notification in the cabinet).
import { Alert, Anchor, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import './i18n.ts';
import '../merchant/i18n-guide.ts';
import { api, ApiError, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';

export default function Home() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [company, setCompany] = useState('');
  const [website, setWebsite] = useState('');
  const me = useQuery({ queryKey: ['partner-me'], queryFn: () => unwrap(api.GET('/partner/me')) });
  const apply = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/partner/auth/register', { body: { company_name: company, ...(website ? { website } : {}) } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['partner-me'] }),
  });
  const none = me.error instanceof ApiError && me.error.status === 404;
  return (
    <Page title={t('pnav.home')}>
      {none && (
        <Card withBorder>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              apply.mutate();
            }}
          >
            <Stack>
              <Text fw={600}>{t('partner.apply')}</Text>
              <TextInput
                label={t('partner.company')}
                required
                value={company}
                onChange={(e) => setCompany(e.currentTarget.value)}
              />
              <TextInput
                label={t('partner.website')}
                value={website}
                onChange={(e) => setWebsite(e.currentTarget.value)}
              />
              <ErrorAlert error={apply.error} />
              <Button type="submit" w="fit-content" loading={apply.isPending}>
                {t('partner.apply')}
              </Button>
            </Stack>
          </form>
        </Card>
      )}
      {!none && <ErrorAlert error={me.error} />}
      {me.data && (
        <Card withBorder data-testid="partner-profile">
          <Stack gap="xs">
            <Text fw={700}>{me.data.company_name}</Text>
            <Group gap="xs">
              <Text>{t('partner.status')}:</Text>
              <StatusBadge status={me.data.status} kind="partner_status" />
            </Group>
            <Text>
              {t('partner.rate')}: {me.data.commission_rate_bps / 100} %
            </Text>
            {me.data.status === 'pending' && <Alert color="yellow">{t('partner.pendingNote')}</Alert>}
            {(me.data.status === 'rejected' || me.data.status === 'suspended') && (
              <Alert color="red">
                {t(me.data.status === 'rejected' ? 'partner.rejectedNote' : 'partner.suspendedNote')}
              </Alert>
            )}
            {me.data.status === 'active' && (
              // The green alert's own colours are below AA on its background: body text and a darker blue for links.
              <Alert
                color="green"
                title={t('partner.approved')}
                data-testid="partner-approved"
                styles={{ title: { color: 'var(--mantine-color-text)' } }}
              >
                <Text size="sm">{t('partner.approvedNext')}</Text>
                <Group gap="md" mt="xs">
                  <Anchor component={Link} to="/partner/links" size="sm" fw={600} c="blue.9">
                    {t('partner.approvedLinks')}
                  </Anchor>
                  {!me.data.messenger_linked && (
                    <Anchor component={Link} to="/profile" size="sm" fw={600} c="blue.9">
                      {t('partner.approvedMessenger')}
                    </Anchor>
                  )}
                </Group>
              </Alert>
            )}
          </Stack>
        </Card>
      )}
    </Page>
  );
}
