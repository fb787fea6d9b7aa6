// The live and test keys: which key is in force (its prefix) and a new one, shown once (owner only: the
// API answers others with not_owner).
import { Card, Group, Text, Button, Code, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';

function KeyCard({ mode, prefix }: { mode: 'live' | 'test'; prefix: string | null }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [key, setKey] = useState<string>();
  const regenerate = useMutation({
    mutationFn: () => unwrap(api.POST('/me/api-key/regenerate', { body: { mode } })),
    onSuccess: (r) => {
      setKey(r.api_key);
      void queries.invalidateQueries({ queryKey: ['me'] });
    },
  });
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Text fw={600}>{mode === 'live' ? t('apiKeys.live') : t('apiKeys.test')}</Text>
          <Button
            variant="default"
            onClick={() => window.confirm(t('apiKeys.regenerateWarn')) && regenerate.mutate()}
            loading={regenerate.isPending}
            data-testid={`regenerate-${mode}`}
          >
            {t('apiKeys.regenerate')}
          </Button>
        </Group>
        <Text size="sm">
          {t('apiKeys.prefix')}: <Code>{prefix ?? '—'}</Code>
        </Text>
        <ErrorAlert error={regenerate.error} />
        {key && <ShownOnce label={t('apiKeys.newKey')} value={key} />}
      </Stack>
    </Card>
  );
}

export default function ApiKeys() {
  const { t } = useTranslation();
  const me = useMe();
  return (
    <Page title={t('apiKeys.title')}>
      <ErrorAlert error={me.error} />
      {me.data && (
        <>
          <KeyCard mode="test" prefix={me.data.test_api_key_prefix} />
          <KeyCard mode="live" prefix={me.data.api_key_prefix} />
        </>
      )}
    </Page>
  );
}
