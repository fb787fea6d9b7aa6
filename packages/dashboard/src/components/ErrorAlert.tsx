// An API error as the user sees it: the dashboard's own words for a code it knows (`errors.<code>` in the
// i18n bundles, in the user's language), else the server's message; and the code and request id support
// will ask for.
import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.ts';

export function ErrorAlert({ error }: { error: unknown }) {
  const { t, i18n } = useTranslation();
  if (!error) return null;
  const e = error instanceof ApiError ? error : null;
  const known = e ? i18n.exists(`errors.${e.code}`) : false;
  return (
    <Alert color="red" title={t('common.error')} role="alert">
      <Text size="sm">
        {e ? (known ? t(`errors.${e.code}`) : e.body.message) : String((error as Error)?.message ?? error)}
      </Text>
      {e && (
        <Text size="xs" c="dimmed">
          {e.code}
          {e.body.request_id ? ` · ${t('common.requestId')}: ${e.body.request_id}` : ''}
        </Text>
      )}
    </Alert>
  );
}
