// Payment links of the mode: create one (amount, description, how long it lives, reusable), see its QR
// (the hosted page's address, to print or show), copy the link, deactivate it.
import {
  Table,
  Button,
  NumberInput,
  TextInput,
  Switch,
  Stack,
  Group,
  CopyButton,
  Anchor,
  ScrollArea,
  Text,
  Image,
} from '@mantine/core';
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
              <CopyButton value={created}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? t('common.copied') : t('common.copy')}
                  </Button>
                )}
              </CopyButton>
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
      <ScrollArea viewportProps={{ tabIndex: 0 }}>
        <Table striped miw={640} data-testid="links-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('common.description')}</Table.Th>
              <Table.Th ta="right">{t('common.amount')}</Table.Th>
              <Table.Th>{t('common.status')}</Table.Th>
              <Table.Th>{t('links.expires')}</Table.Th>
              <Table.Th>{t('links.paidCount')}</Table.Th>
              <Table.Th>{t('common.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.data?.data.map((l) => (
              <Table.Tr key={l.token}>
                <Table.Td>
                  <Anchor href={l.url} target="_blank">
                    {l.description}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {tenge(l.amount)}
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={l.status} kind="link_status" />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime(l.expires_at, i18n.language)}</Table.Td>
                <Table.Td>{l.paid_count}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <CopyButton value={l.url}>
                      {({ copied, copy }) => (
                        <Button size="xs" variant="subtle" onClick={copy}>
                          {copied ? t('common.copied') : t('common.copy')}
                        </Button>
                      )}
                    </CopyButton>
                    {l.status === 'active' && (
                      <Button size="xs" variant="default" onClick={() => cancel.mutate(l.token)}>
                        {t('links.deactivate')}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {links.data?.data.length === 0 && <Text c="dimmed">{t('common.empty')}</Text>}
    </Page>
  );
}
