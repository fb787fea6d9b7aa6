// A secret the API shows only once (an API key, a webhook secret): the value, a copy button and the warning.
import { Alert, Code, CopyButton, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function ShownOnce({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={label}>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code data-testid="shown-once" style={{ wordBreak: 'break-all' }}>{value}</Code>
        <CopyButton value={value}>
          {({ copied, copy }) => <Button size="xs" variant="light" onClick={copy}>{copied ? t('common.copied') : t('common.copy')}</Button>}
        </CopyButton>
      </Group>
      {t('common.shownOnce')}
    </Alert>
  );
}
