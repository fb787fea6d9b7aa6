import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = {
  paid: 'green', active: 'green', delivered: 'green', connected: 'green',
  created: 'blue', pending: 'blue', processing: 'blue',
  refunded: 'gray', partially_refunded: 'gray', expired: 'gray', cancelled: 'gray',
  failed: 'red', declined: 'red', rejected: 'red',
};

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return <Badge color={COLORS[status] ?? 'gray'} variant="dot" style={{ minWidth: 'max-content' }}>{t(`status.${status}`, { defaultValue: status })}</Badge>;
}
