// Payment links of the mode: create one (amount, description, how long it lives, reusable), see its QR
// (the hosted page's address, to print or show), copy the link, deactivate it.
import { Button, NumberInput, TextInput, Switch, Stack, Group, Anchor, Image } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notify } from '../../components/notify.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import { api, unwrap } from '../../api/client.ts';
import { useMode } from '../../mode.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Copy } from '../../components/Copy.tsx';
import { Rows } from '../../components/Rows.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { dateTime, tenge } from '../../format.ts';

function LinkQr({ url, label }: { url: string; label: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    void QRCode.toDataURL(url, { margin: 1, width: 200 }).then(setSrc);
  }, [url]);
  return src ? <Image src={src} alt={label} w={200} h={200} /> : null;
}

function CreateLink({ onDone }: { onDone: (url: string) => void }) {
  const { t } = useTranslation();
  const { mode } = useMode();
  const queries = useQueryClient();
  const [amount, setAmount] = useState<number | string>('');
  const [description, setDescription] = useState('');
  const [minutes, setMinutes] = useState<number | string>(1440);
  const [repeat, setRepeat] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v2/payment-links', {
          params: { query: { mode } },
          headers: { 'idempotency-key': crypto.randomUUID() },
          body: { amount: Number(amount), description, expires_in_minutes: Number(minutes), allow_repeat: repeat },
        }),
      ),
    onSuccess: (l) => {
      void queries.invalidateQueries({ queryKey: ['links'] });
      notify(t('links.created'));
      onDone(l.url);
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <Stack>
        <NumberInput
          label={t('common.amount')}
          required
          min={1}
          allowDecimal={false}
          thousandSeparator=" "
          suffix=" ₸"
          value={amount}
          onChange={setAmount}
        />
        <TextInput
          label={t('common.description')}
          required
          maxLength={500}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <NumberInput
          label={t('links.minutes')}
          min={5}
          max={43200}
          allowDecimal={false}
          value={minutes}
          onChange={setMinutes}
        />
        <Switch label={t('links.repeat')} checked={repeat} onChange={(e) => setRepeat(e.currentTarget.checked)} />
        <ErrorAlert error={create.error} />
        <Button type="submit" loading={create.isPending}>
          {t('common.create')}
        </Button>
      </Stack>
    </form>
  );
}

export default function Links() {
  const { t, i18n } = useTranslation();
  const { mode } = useMode();
  const queries = useQueryClient();
  const [opened, { open, close }] = useDisclosure();
  const [created, setCreated] = useState<string>();
  const links = useQuery({
    queryKey: ['links', mode],
    queryFn: () => unwrap(api.GET('/v2/payment-links', { params: { query: { mode, limit: 100 } } })),
  });
  const cancel = useMutation({
    mutationFn: (token: string) =>
      unwrap(api.POST('/v2/payment-links/{token}/cancel', { params: { path: { token }, query: { mode } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['links'] }),
  });
  return (
    <Page
      title={t('links.title')}
      actions={
        <Button
          onClick={() => {
            setCreated(undefined);
            open();
          }}
        >
          {t('links.new')}
        </Button>
      }
    >
      <Dialog opened={opened} onClose={close} title={t('links.new')}>
        {created ? (
          <Stack align="center">
            <LinkQr url={created} label={t('links.qr')} />
            <Group gap="xs" wrap="nowrap">
              <Anchor
                href={created}
                target="_blank"
                size="sm"
                style={{ wordBreak: 'break-all' }}
                data-testid="created-link"
              >
                {created}
              </Anchor>
              <Copy value={created} />
            </Group>
            <Button variant="default" onClick={close}>
              {t('common.close')}
            </Button>
          </Stack>
        ) : (
          <CreateLink onDone={setCreated} />
        )}
      </Dialog>
      <ErrorAlert error={links.error ?? cancel.error} />
      <Rows
        testId="links-table"
        rows={links.data?.data}
        rowKey={(l) => l.token}
        columns={[
          {
            label: t('common.description'),
            cell: (l) => (
              <Anchor href={l.url} target="_blank">
                {l.description}
              </Anchor>
            ),
          },
          { label: t('common.amount'), cell: (l) => tenge(l.amount), align: 'right' },
          { label: t('common.status'), cell: (l) => <StatusBadge status={l.status} kind="link_status" /> },
          { label: t('links.expires'), cell: (l) => dateTime(l.expires_at, i18n.language) },
          { label: t('links.paidCount'), cell: (l) => l.paid_count },
          {
            label: t('common.actions'),
            cell: (l) => (
              <Group gap="xs">
                <Copy value={l.url} variant="subtle" />
                {l.status === 'active' && (
                  <Button size="xs" variant="default" onClick={() => cancel.mutate(l.token)}>
                    {t('links.deactivate')}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
    </Page>
  );
}
