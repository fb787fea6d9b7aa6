// A register's settings changed, and optionally its credentials (the current ones are never shown; new
// ones are checked with the service before they replace them).
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { notify } from '../../components/notify.ts';
import { useMode } from '../../mode.tsx';
import type { Register } from './fiscal-parts.tsx';
import { credentialsOf, RegisterCredentials } from './RegisterCredentials.tsx';
import { bodyOf, RegisterSettings, settingsOf } from './RegisterSettings.tsx';

export function RegisterEdit({ register, onDone }: { register: Register; onDone: () => void }) {
  const { t } = useTranslation();
  const { mode } = useMode();
  const queries = useQueryClient();
  const [settings, setSettings] = useState(() => settingsOf(register));
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => {
      const credentials = credentialsOf(register.driver, secrets);
      return unwrap(
        api.PATCH('/me/fiscal/registers/{id}', {
          params: { path: { id: register.id }, query: { mode } },
          body: { ...bodyOf(settings), ...(Object.keys(credentials).length ? { credentials } : {}) },
        }),
      );
    },
    onSuccess: () => {
      setSecrets({});
      notify(t('common.saved'));
      void queries.invalidateQueries({ queryKey: ['fiscal-registers'] });
      onDone();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <RegisterSettings value={settings} onChange={setSettings} />
        {register.driver !== 'sandbox' && (
          <>
            <Text fw={600} size="sm">
              {t('fiscal.newCredentials')}
            </Text>
            <RegisterCredentials driver={register.driver} values={secrets} onChange={setSecrets} required={false} />
          </>
        )}
        <ErrorAlert error={save.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
