// The return QR of a refund that waits for the payer (live accounts on the provider's r2 scheme): the
// cashier shows it, the payer scans it in the payment app they paid with, and only then does the money
// move. The panel draws the QR from return_qr_token, counts down to expires_at, links the customer-facing
// page (return_deep_link) and asks the refund's public status every 3 s until it is final; then it tells
// the page (onFinal) so the payment's data is fetched again.
import { Anchor, Box, Button, Card, Flex, Image, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import type { components } from '@tolem/sdk';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { tenge } from '../../format.ts';

export type Refund = components['schemas']['Refund'];
type ReturnStatus = components['schemas']['PayerRefundStatus'];

const POLL_MS = 3000;
const QR_PX = 264;

/** Seconds as m:ss. */
const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

/** The time now, ticking every second while `active`. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [active]);
  return now;
}

/** Why a failed return failed, in the cashier's words: too late, someone else scanned it, or anything else. */
function failureKey(st: ReturnStatus | undefined, expiresAt: number): string {
  if (st?.return_status === 'NotThePayer') return 'payments.returnNotPayer';
  if (st?.return_status === 'Expired' || Date.now() >= expiresAt) return 'payments.returnExpired';
  return 'payments.returnFailed';
}

export function ReturnQr({
  refund,
  paymentAmount,
  onFinal,
  onClose,
}: {
  refund: Refund;
  paymentAmount: number | undefined;
  onFinal: (status: 'completed' | 'failed') => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const [qr, setQr] = useState<string>();
  const token = refund.return_qr_token ?? '';
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(token, { margin: 2, width: QR_PX, errorCorrectionLevel: 'M' }).then(
      (src) => live && setQr(src),
    );
    return () => {
      live = false;
    };
  }, [token]);
  // The refund form that had the focus is gone: the panel's heading takes it (and a screen reader reads it).
  useEffect(() => {
    heading.current?.focus();
  }, [refund.refund_id]);

  const status = useQuery({
    queryKey: ['refund-return', refund.operation_id, refund.refund_id],
    queryFn: () =>
      unwrap(
        api.GET('/pay/{op_id}/refunds/{refund_id}/status', {
          params: { path: { op_id: refund.operation_id, refund_id: refund.refund_id } },
        }),
      ),
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'pending' ? false : POLL_MS),
    // The cashier may be looking at the customer's screen in another tab meanwhile.
    refetchIntervalInBackground: true,
    gcTime: 0,
  });
  const state = status.data?.status ?? 'pending';
  const final = state !== 'pending';
  const reported = useRef(false);
  useEffect(() => {
    if (final && !reported.current) {
      reported.current = true;
      onFinal(state);
    }
  }, [final, state, onFinal]);

  const expiresAt = new Date(status.data?.expires_at ?? refund.expires_at ?? 0).getTime();
  const now = useNow(!final);
  const left = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  const message =
    state === 'completed'
      ? t('payments.returnDone')
      : state === 'failed'
        ? t(failureKey(status.data, expiresAt))
        : t('payments.returnWaiting');
  const amount = tenge(refund.amount);

  return (
    <Card
      withBorder
      shadow="sm"
      data-testid="return-qr"
      aria-labelledby="return-qr-title"
      component="section"
      style={{ borderWidth: 2, borderColor: 'var(--mantine-color-blue-7)' }}
    >
      <Stack gap="sm">
        <Title order={2} size="h3" id="return-qr-title" ref={heading} tabIndex={-1}>
          {t(final ? 'payments.returnTitleFinal' : 'payments.returnTitle')}
        </Title>
        {!final && <Text size="sm">{t('payments.returnHint')}</Text>}
        <Flex gap="md" direction={{ base: 'column', sm: 'row' }} align={{ base: 'center', sm: 'flex-start' }}>
          {!final && (
            <Box bg="white" p={4} style={{ lineHeight: 0, borderRadius: 4 }}>
              {qr ? (
                <Image
                  src={qr}
                  alt={t('payments.returnQrAlt', { amount })}
                  w={QR_PX}
                  h={QR_PX}
                  maw="100%"
                  data-testid="return-qr-image"
                />
              ) : (
                <Box w={QR_PX} h={QR_PX} />
              )}
            </Box>
          )}
          <Stack gap={6} w="100%" miw={0}>
            <Text size="sm">{t('payments.refundAmount')}</Text>
            <Text fw={700} size="xl" data-testid="return-amount">
              {amount}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {t('payments.detail')}:{' '}
              <Text span ff="monospace" size="sm">
                {refund.operation_id}
              </Text>
              {paymentAmount !== undefined ? ` · ${tenge(paymentAmount)}` : ''}
            </Text>
            {!final && (
              <Text size="sm" role="timer" aria-atomic="true" data-testid="return-countdown">
                {left > 0 ? (
                  <>
                    {t('payments.returnValidFor')} <b>{clock(left)}</b>
                  </>
                ) : (
                  t('payments.returnQrExpired')
                )}
              </Text>
            )}
            {!final && refund.return_deep_link && (
              <Anchor
                href={refund.return_deep_link}
                target="_blank"
                rel="noopener noreferrer"
                size="sm"
                data-testid="return-link"
              >
                {t('payments.returnOpen')}
                <VisuallyHidden> {t('payments.returnNewTab')}</VisuallyHidden>
              </Anchor>
            )}
            <Box role="status" data-testid="return-status">
              <Flex gap="xs" align="center" wrap="wrap">
                <StatusBadge status={state} kind="refund_status" />
                <Text size="sm" fw={600}>
                  {message}
                </Text>
              </Flex>
            </Box>
            <ErrorAlert error={status.error} />
            {final && (
              <Button variant="default" onClick={onClose} style={{ alignSelf: 'flex-start' }}>
                {t('common.close')}
              </Button>
            )}
          </Stack>
        </Flex>
      </Stack>
    </Card>
  );
}
