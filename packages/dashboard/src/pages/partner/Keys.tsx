// The partner API's keys: one per mode, shown once; a new one revokes the previous at once.
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './i18n.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';

function KeyOf({ mode }: { mode: 'live' | 'test' }) {
  const { t } = useTranslation();
  const issue = useMutation({ mutationFn: () => unwrap(api.POST('/partner/integration/api-keys', { body: { mode } })) });
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Text fw={600}>{mode === 'live' ? t('apiKeys.live') : t('apiKeys.test')}</Text>
          <Button variant="default" onClick={() => issue.mutate()} loading={issue.isPending}>{t('keys.issue')}</Button>
        </Group>
        <ErrorAlert error={issue.error} />
        {issue.data && <ShownOnce label={issue.data.prefix} value={issue.data.api_key} />}
      </Stack>
    </Card>
  );
}

export default function Keys() {
  const { t } = useTranslation();
  return (
    <Page title={t('keys.title')}>
      <Text c="dimmed">{t('keys.note')}</Text>
      <KeyOf mode="test" />
      <KeyOf mode="live" />
    </Page>
  );
}
