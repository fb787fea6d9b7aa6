// An error as the user sees it (decisions 30): the dashboard's own words for its code in the user's
// language (i18n/errors.ts has one for every code the API or the SDK can give), never the server's
// English message; the code and request id support will ask for stay behind a "details" control.
import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.ts';
import { addBundle } from '../i18n/index.ts';
import { errorBundle } from '../i18n/errors.ts';

addBundle(errorBundle);

/** `field` names a form's field by the API's `param` (e.g. `bin` -> «БИН/ИИН»), for a refused value. */
export function ErrorAlert({ error, field }: { error: unknown; field?: (param: string) => string | undefined }) {
  const { t, i18n } = useTranslation();
  if (!error) return null;
  const e = error instanceof ApiError ? error : null;
  const label = e?.code === 'invalid_parameter' && e.param ? field?.(e.param) : undefined;
  // A proxy's bare answer (http_502) or a failure in the page itself has no words of its own.
  const key = e && i18n.exists(`errors.${e.code}`) ? `errors.${e.code}` : 'errors.unknown';
  const detail = e
    ? `${e.code}${e.requestId ? ` · ${t('common.requestId')}: ${e.requestId}` : ''}`
    : String((error as Error)?.message ?? error);
  return (
    <Alert color="red" title={t('common.error')} role="alert">
      <Text size="sm" data-testid="error-words">
        {label ? t('errors.invalidField', { field: label }) : t(key)}
      </Text>
      <details>
        <Text component="summary" size="xs" c="dimmed" style={{ cursor: 'pointer' }}>
          {t('errors.details')}
        </Text>
        <Text size="xs" c="dimmed" data-testid="error-details">
          {detail}
        </Text>
      </details>
    </Alert>
  );
}
