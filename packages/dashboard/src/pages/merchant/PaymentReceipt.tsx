// A payment's fiscal receipt on its page: the sale receipt's status, and once issued its fiscal sign and
// its page at the fiscal data operator; the return receipts of its refunds; and the receipts page found
// by this payment.
import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime, tenge } from '../../format.ts';
import { CheckLink, ReceiptError, type Receipt } from './fiscal-parts.tsx';

interface Brief {
  id: string;
  status: 'pending' | 'issued' | 'failed';
  check_url: string | null;
}

function ReceiptLine({ r }: { r: Receipt }) {
  const { t, i18n } = useTranslation();
  return (
    <Group gap="sm" wrap="wrap" data-testid="receipt-line">
      <StatusBadge status={r.status} kind="receipt_status" />
      <Text size="sm">{tenge(r.amount)}</Text>
      {r.fiscal_sign && (
        <Text size="sm">
          {t('fiscal.fiscalSign')}: <span style={{ fontFamily: 'monospace' }}>{r.fiscal_sign}</span>
        </Text>
      )}
      {r.issued_at && <Text size="sm">{dateTime(r.issued_at, i18n.language)}</Text>}
      {r.status === 'failed' && <ReceiptError error={r.error} />}
      {r.check_url && <CheckLink url={r.check_url} />}
    </Group>
  );
}

export function PaymentReceipt({
  opId,
  mode,
  receipt,
}: {
  opId: string;
  mode: 'live' | 'test';
  receipt: Brief | null;
}) {
  const { t } = useTranslation();
  const sale = useQuery({
    queryKey: ['receipt', mode, receipt?.id, receipt?.status],
    queryFn: () => unwrap(api.GET('/v2/receipts/{id}', { params: { path: { id: receipt!.id }, query: { mode } } })),
    enabled: Boolean(receipt),
  });
  const returns = useQuery({
    queryKey: ['receipts', mode, { operation_id: opId, kind: 'return' }],
    queryFn: () =>
      unwrap(api.GET('/v2/receipts', { params: { query: { mode, operation_id: opId, kind: 'return', limit: 50 } } })),
    enabled: Boolean(receipt),
  });
  return (
    <Card withBorder data-testid="payment-receipt">
      <Text fw={600} mb="xs" component="h2">
        {t('fiscal.paymentReceipt')}
      </Text>
      {!receipt ? (
        <Text size="sm" c="dimmed">
          {t('fiscal.noReceipt')}
        </Text>
      ) : (
        <Stack gap="xs">
          {sale.data ? (
            <ReceiptLine r={sale.data} />
          ) : (
            <Group gap="sm">
              <StatusBadge status={receipt.status} kind="receipt_status" />
              <CheckLink url={receipt.check_url} />
            </Group>
          )}
          {returns.data && returns.data.data.length > 0 && (
            <>
              <Text fw={600} size="sm">
                {t('fiscal.returnReceipts')}
              </Text>
              {returns.data.data.map((r) => (
                <ReceiptLine key={r.id} r={r} />
              ))}
            </>
          )}
          <ErrorAlert error={sale.error ?? returns.error} />
          <Anchor component={Link} to={`/fiscal/receipts?operation_id=${encodeURIComponent(opId)}`} size="sm">
            {t('fiscal.allReceipts')}
          </Anchor>
        </Stack>
      )}
    </Card>
  );
}
