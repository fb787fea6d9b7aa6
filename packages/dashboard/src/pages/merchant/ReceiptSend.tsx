// Sending an issued receipt's check link to the payer: by e-mail or by SMS, one of them.
import { Button, Group, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { notify } from '../../components/notify.ts';
import { useMode } from '../../mode.tsx';

export function ReceiptSend({ receiptId, onDone }: { receiptId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const { mode } = useMode();
  const [by, setBy] = useState<'email' | 'phone'>('email');
  const [to, setTo] = useState('');
  const send = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v2/receipts/{id}/send', {
          params: { path: { id: receiptId }, query: { mode } },
          body: by === 'email' ? { email: to.trim() } : { phone: to.trim() },
        }),
      ),
    onSuccess: (r) => {
      notify(t('fiscal.sent', { to: r.recipient }));
      onDone();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        send.mutate();
      }}
    >
      <Stack>
        <SegmentedControl
          aria-label={t('fiscal.sendBy')}
          value={by}
          onChange={(v) => {
            setBy(v as 'email' | 'phone');
            setTo('');
          }}
          data={[
            { value: 'email', label: t('fiscal.byEmail') },
            { value: 'phone', label: t('fiscal.byPhone') },
          ]}
        />
        <TextInput
          label={by === 'email' ? t('fiscal.byEmail') : t('fiscal.phone')}
          type={by === 'email' ? 'email' : 'tel'}
          autoComplete={by === 'email' ? 'email' : 'tel'}
          placeholder={by === 'email' ? 'buyer@example.kz' : '+7 701 234 56 78'}
          required
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
        />
        <ErrorAlert error={send.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={send.isPending}>
            {t('fiscal.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
