import { Badge } from '@mantine/core';
import type { EnumKind } from '../i18n/enums.ts';
import { useWords } from './words.ts';

const COLORS: Record<string, string> = {
  paid: 'green',
  active: 'green',
  delivered: 'green',
  connected: 'green',
  available: 'green',
  paid_out: 'green',
  answered: 'green',
  created: 'blue',
  pending: 'blue',
  processing: 'blue',
  open: 'blue',
  invited: 'blue',
  confirmation_required: 'blue',
  refunded: 'gray',
  partially_refunded: 'gray',
  expired: 'gray',
  cancelled: 'gray',
  closed: 'gray',
  revoked: 'gray',
  reversed: 'gray',
  failed: 'red',
  declined: 'red',
  rejected: 'red',
  suspended: 'red',
  restricted: 'red',
};

/**
 * A status in words. `kind` names whose status it is (i18n/enums.ts): the word depends on it (Russian
 * agrees in gender: a link is «активна», a team member «активен»).
 */
export function StatusBadge({ status, kind }: { status: string; kind: EnumKind }) {
  const { word } = useWords();
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="dot" style={{ minWidth: 'max-content' }}>
      {word(kind, status)}
    </Badge>
  );
}
