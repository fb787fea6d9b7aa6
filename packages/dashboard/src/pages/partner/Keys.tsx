// The partner API's keys: one per mode, shown once; a new one revokes the previous at once.
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './i18n.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { dateTime } from '../../format.ts';

type KeyInfo = { mode: string; prefix: string; created_at: string };

function KeyOf({ mode, current }: { mode: 'live' | 'test'; current?: KeyInfo }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const issue = useMutation({
    mutationFn: () => unwrap(api.POST('/partner/integration/api-keys', { body: { mode } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['partner-keys'] }),
  });
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Text fw={600}>{mode === 'live' ? t('apiKeys.live') : t('apiKeys.test')}</Text>
          <Button variant="default" onClick={() => issue.mutate()} loading={issue.isPending}>
            {t('keys.issue')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed" data-testid={`partner-key-${mode}`}>
          {current
            ? t('keys.current', { prefix: current.prefix, date: dateTime(current.created_at, i18n.language) })
            : t('keys.none')}
        </Text>
        <ErrorAlert error={issue.error} />
        {issue.data && <ShownOnce label={issue.data.prefix} value={issue.data.api_key} />}
      </Stack>
    </Card>
  );
}

export default function Keys() {
  const { t } = useTranslation();
  const keys = useQuery({
    queryKey: ['partner-keys'],
    queryFn: () => unwrap(api.GET('/partner/integration/api-keys')),
  });
  const of = (mode: string) => keys.data?.data.find((k: KeyInfo) => k.mode === mode);
  return (
    <Page title={t('keys.title')}>
      <Text c="dimmed">{t('keys.note')}</Text>
      <ErrorAlert error={keys.error} />
      <KeyOf mode="test" current={of('test')} />
      <KeyOf mode="live" current={of('live')} />
    </Page>
  );
}
