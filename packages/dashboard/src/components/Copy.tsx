// A "Copy" button (then "Copied") beside a value: it never shrinks, so its label always fits, however long
// the value next to it (a secret, a link).
import { Button, CopyButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function Copy({ value, variant = 'light' }: { value: string; variant?: 'light' | 'subtle' | 'default' }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button size="xs" variant={variant} onClick={copy} style={{ flexShrink: 0 }}>
          {copied ? t('common.copied') : t('common.copy')}
        </Button>
      )}
    </CopyButton>
  );
}
