// A secret the API shows only once (an API key, a webhook secret): the value, a copy button and the warning.
import { Alert, Code, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Copy } from './Copy.tsx';

export function ShownOnce({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    // The yellow alert's own title colour is 2.7:1 on its background (WCAG AA asks 4.5:1): body text colour.
    <Alert color="yellow" title={label} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code data-testid="shown-once" style={{ wordBreak: 'break-all' }}>
          {value}
        </Code>
        <Copy value={value} />
      </Group>
      {t('common.shownOnce')}
    </Alert>
  );
}
