// One payment: its fields, its buyer, its refunds, its fiscal receipts, its events from the journal, and a
// refund (whole or part) for finance roles.
// A refund that waits for the payer (r2 live accounts answer pending with a return QR) opens the return
// QR panel (ReturnQr.tsx) for the cashier; the form comes back once that refund is final. Money leaves the
// merchant, so the amount is never implied: it is typed, or "the whole remaining amount" is ticked, and a
// dialog names the amount and the payment before anything is sent.
import { Card, Table, NumberInput, Button, Group, Text, Stack, Anchor, Checkbox } from '@mantine/core';
import { notify } from '../../components/notify.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { useMode } from '../../mode.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime, tenge } from '../../format.ts';
import { useWords } from '../../components/words.ts';
import { ReturnQr, type Refund } from './ReturnQr.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { PaymentBuyer } from './PaymentBuyer.tsx';
import { PaymentRefunds } from './PaymentRefunds.tsx';
import { PaymentReceipt } from './PaymentReceipt.tsx';

export default function PaymentDetail() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const { opId = '' } = useParams();
  const { mode } = useMode();
  const queries = useQueryClient();
  const payment = useQuery({
    queryKey: ['payment', mode, opId],
    queryFn: () =>
      unwrap(api.GET('/me/payments/status/{op_id}', { params: { path: { op_id: opId }, query: { mode } } })),
  });
  const events = useQuery({
    queryKey: ['payment-events', mode, opId],
    queryFn: () => unwrap(api.GET('/v2/events', { params: { query: { mode, operation_id: opId, limit: 50 } } })),
  });
  const p = payment.data;
  const refundable = p ? p.amount - p.refunded_amount : 0;
  const [amount, setAmount] = useState<number | string>('');
  const [full, setFull] = useState(false);
  const [amountError, setAmountError] = useState<string | null>(null);
  // The amount the open confirmation names; null while it is closed.
  const [confirming, setConfirming] = useState<number | null>(null);
  const [returning, setReturning] = useState<{ refund: Refund; final: boolean } | null>(null);
  const refund = useMutation({
    mutationFn: (sum: number) =>
      unwrap(
        api.POST('/me/payments/{op_id}/refund', {
          params: { path: { op_id: opId }, query: { mode } },
          headers: { 'idempotency-key': crypto.randomUUID() },
          body: { amount: sum },
        }),
      ),
    onSuccess: (r) => {
      setAmount('');
      setFull(false);
      if (r.return_qr_token) {
        // Nothing moved yet: the payer has to scan the return QR (no toast, the panel says it all).
        setReturning({ refund: r, final: false });
        return;
      }
      notify(t(r.status === 'pending' ? 'payments.refundPending' : 'payments.refundDone'));
      void queries.invalidateQueries();
    },
  });
  const returnFinal = useCallback(() => {
    setReturning((r) => (r ? { ...r, final: true } : r));
    void queries.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'refund-return' });
  }, [queries]);
  const waitingForPayer = Boolean(returning && !returning.final);
  return (
    <Page
      title={`${t('payments.detail')} ${opId}`}
      actions={
        <Anchor component={Link} to="/payments">
          {t('common.back')}
        </Anchor>
      }
    >
      <ErrorAlert error={payment.error} />
      {returning && (
        <ReturnQr
          key={returning.refund.refund_id}
          refund={returning.refund}
          paymentAmount={p?.amount}
          onFinal={returnFinal}
          onClose={() => setReturning(null)}
        />
      )}
      {p && (
        <Card withBorder>
          <Stack gap={4}>
            <Group>
              <StatusBadge status={p.status} kind="payment_status" />
              <Text fw={700} size="xl">
                {tenge(p.amount)}
              </Text>
            </Group>
            <Text size="sm">
              {t('common.created')}: {dateTime(p.created_at, i18n.language)}
            </Text>
            {p.paid_at && (
              <Text size="sm">
                {t('payments.paidAt')}: {dateTime(p.paid_at, i18n.language)}
              </Text>
            )}
            <Text size="sm">
              {t('payments.refunded')}: {tenge(p.refunded_amount)}
            </Text>
            {p.comment && <Text size="sm">{p.comment}</Text>}
          </Stack>
        </Card>
      )}
      {p && !waitingForPayer && refundable > 0 && ['paid', 'partially_refunded'].includes(p.status) && (
        <Card withBorder>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const sum = full ? refundable : Number(amount);
              if (!full && (amount === '' || !Number.isInteger(sum) || sum < 1 || sum > refundable)) {
                setAmountError(t('payments.refundAmountNeeded', { max: tenge(refundable) }));
                return;
              }
              setAmountError(null);
              setConfirming(sum);
            }}
            noValidate
          >
            <Stack gap="xs">
              <Group align="end">
                <NumberInput
                  label={t('payments.refundAmount')}
                  description={`${t('payments.refundable')}: ${tenge(refundable)}`}
                  min={1}
                  max={refundable}
                  value={full ? refundable : amount}
                  onChange={(v) => {
                    setAmount(v);
                    setAmountError(null);
                  }}
                  disabled={full}
                  error={amountError}
                  allowDecimal={false}
                  thousandSeparator=" "
                />
                <Button type="submit" color="red.9" loading={refund.isPending}>
                  {t('payments.refund')}
                </Button>
              </Group>
              <Checkbox
                label={t('payments.refundFull', { amount: tenge(refundable) })}
                checked={full}
                onChange={(e) => {
                  setFull(e.currentTarget.checked);
                  setAmountError(null);
                }}
              />
            </Stack>
            <ErrorAlert error={refund.error} />
          </form>
        </Card>
      )}
      <Dialog opened={confirming !== null} onClose={() => setConfirming(null)} title={t('payments.refundConfirmTitle')}>
        {confirming !== null && p && (
          <Stack>
            <Text>
              {t('payments.refundConfirmText', {
                amount: tenge(confirming),
                payment: opId,
                total: tenge(p.amount),
                date: p.paid_at ? dateTime(p.paid_at, i18n.language) : '',
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('payments.refundConfirmNote')}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                {t('common.cancel')}
              </Button>
              <Button
                color="red.9"
                loading={refund.isPending}
                onClick={() => {
                  const sum = confirming;
                  setConfirming(null);
                  refund.mutate(sum);
                }}
              >
                {t('payments.refundConfirm', { amount: tenge(confirming) })}
              </Button>
            </Group>
          </Stack>
        )}
      </Dialog>
      {p && <PaymentBuyer name={p.sender_name} phone={p.phone} />}
      {p && <PaymentRefunds opId={opId} mode={mode} />}
      {p && <PaymentReceipt opId={opId} mode={mode} receipt={p.receipt} />}
      <Card withBorder>
        <Text fw={600} mb="xs">
          {t('payments.events')}
        </Text>
        <Table>
          <Table.Tbody>
            {events.data?.data.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td>{word('event_type', e.type)}</Table.Td>
                <Table.Td>{dateTime(e.created_at, i18n.language)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </Page>
  );
}
