import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = {
  paid: 'green',
  active: 'green',
  delivered: 'green',
  connected: 'green',
  created: 'blue',
  pending: 'blue',
  processing: 'blue',
  refunded: 'gray',
  partially_refunded: 'gray',
  expired: 'gray',
  cancelled: 'gray',
  failed: 'red',
  declined: 'red',
  rejected: 'red',
};

/**
 * `of` names what has the status where the word depends on it (Russian agrees in gender: a link is
 * «активна», a team member «активен»): `status.<of>.<status>` first, then `status.<status>`.
 */
export function StatusBadge({ status, of }: { status: string; of?: string }) {
  const { t } = useTranslation();
  const word = t(`status.${status}`, { defaultValue: status });
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="dot" style={{ minWidth: 'max-content' }}>
      {of ? t(`status.${of}.${status}`, { defaultValue: word }) : word}
    </Badge>
  );
}
