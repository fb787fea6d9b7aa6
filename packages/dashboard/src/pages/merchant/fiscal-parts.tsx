// What the fiscal pages share: the switch between registers and receipts, a register's name, a failed
// receipt's reason in words, and the link to a receipt's check page at the fiscal data operator.
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { components } from '@tolem/sdk';
import { tenge } from '../../format.ts';
import { RECEIPT_ERROR_WORDS } from './i18n-fiscal.ts';

export type Register = components['schemas']['FiscalRegister'];
export type Receipt = components['schemas']['Receipt'];

/** Registers | receipts: the section's two lists, the current one marked for a screen reader. */
export function FiscalTabs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const onReceipts = pathname.endsWith('/fiscal/receipts');
  const tab = (to: string, label: string, current: boolean) => (
    <Button
      component={Link}
      to={to}
      size="xs"
      variant={current ? 'filled' : 'default'}
      aria-current={current ? 'page' : undefined}
    >
      {label}
    </Button>
  );
  return (
    <Group gap="xs" component="nav" aria-label={t('nav.fiscal')}>
      {tab('/fiscal', t('fiscal.registers'), !onReceipts)}
      {tab('/fiscal/receipts', t('fiscal.receipts'), onReceipts)}
    </Group>
  );
}

export const registerName = (r: Pick<Register, 'display_name' | 'register_number'>) =>
  r.display_name ?? r.register_number;

/** A receipt's error code is `kind` or `kind:service code`: worded by its kind, the code kept beside it. */
export function ReceiptError({ error }: { error: Receipt['error'] }) {
  const { t } = useTranslation();
  if (!error) return <>—</>;
  const kind = error.code.split(':')[0];
  const known = Object.hasOwn(RECEIPT_ERROR_WORDS, kind);
  return (
    <Text size="sm" c="red.9" title={error.code}>
      {t(`receiptError.${known ? kind : 'other'}`)}
    </Text>
  );
}

/** The receipt's page at the fiscal data operator, in a new tab. */
export function CheckLink({ url }: { url: string | null }) {
  const { t } = useTranslation();
  if (!url) return <>—</>;
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm">
      {t('fiscal.checkLink')}
    </Anchor>
  );
}

export type Shift = components['schemas']['FiscalShift'];

/** A Z-report's totals: sales and returns (count and sum), and how many went offline. */
export function ZTotals({ z }: { z: NonNullable<Shift['z_report']> }) {
  const { t } = useTranslation();
  const line = (label: string, count: number, sum: number) => (
    <Text size="sm">
      {label}: {t('fiscal.countSum', { count, sum: tenge(sum) })}
    </Text>
  );
  return (
    <Stack gap={2} data-testid="z-totals">
      {line(t('fiscal.sales'), z.sale_count, z.sale_total)}
      {line(t('fiscal.returns'), z.return_count, z.return_total)}
      {z.offline_count !== null && (
        <Text size="sm">
          {t('fiscal.offlineCount')}: {z.offline_count}
        </Text>
      )}
    </Stack>
  );
}
