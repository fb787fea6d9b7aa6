// Withdrawals: the bank details (sealed on the server, the IBAN shown masked), a request (202: a code goes
// to the partner's messenger), the code step, and the act of a paid one (a PDF fetched with the session).
// Without a bound messenger chat the code has nowhere to go: the page says so and sends the user to the
// profile, where the chat is bound, before a request is refused for it (messenger_not_linked).
import { Alert, Anchor, Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import './i18n.ts';
import '../merchant/i18n-guide.ts';
import { api, ApiError, unwrap } from '../../api/client.ts';
import { accessToken } from '../../api/session.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { notify } from '../../components/notify.ts';
import { dateTime, tenge } from '../../format.ts';

const BANK = ['recipient_name', 'bin', 'iban', 'bik', 'bank_name', 'kbe'] as const;
type Bank = Partial<Record<(typeof BANK)[number], string | null>>;

async function downloadAct(id: number) {
  const res = await fetch(`/partner/withdrawals/${id}/act`, {
    headers: { authorization: `Bearer ${await accessToken()}` },
  });
  const url = URL.createObjectURL(await res.blob());
  Object.assign(document.createElement('a'), { href: url, download: `act-${id}.pdf` }).click();
  URL.revokeObjectURL(url);
}

export default function Withdrawals() {
  const { t, i18n } = useTranslation();
  const queries = useQueryClient();
  const refresh = () => void queries.invalidateQueries();
  const bank = useQuery({ queryKey: ['bank'], queryFn: () => unwrap(api.GET('/partner/settings/bank')) });
  const profile = useQuery({ queryKey: ['partner-me'], queryFn: () => unwrap(api.GET('/partner/me')) });
  const list = useQuery({
    queryKey: ['withdrawals'],
    queryFn: () => unwrap(api.GET('/partner/withdrawals', { params: { query: { limit: 100 } } })),
  });
  const [form, setForm] = useState<Bank>({});
  useEffect(() => {
    if (bank.data) setForm({ ...(bank.data as Bank), iban: '' });
  }, [bank.data]);
  const saveBank = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/partner/settings/bank', {
          body: Object.fromEntries(Object.entries(form).filter(([k, v]) => BANK.includes(k as never) && v)) as never,
        }),
      ),
    onSuccess: () => {
      notify(t('common.saved'));
      refresh();
    },
  });
  const [amount, setAmount] = useState<number | string>(30000);
  const request = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/partner/withdrawals', {
          headers: { 'idempotency-key': crypto.randomUUID() },
          body: { amount: Number(amount) },
        }),
      ),
    onSuccess: refresh,
  });
  const [code, setCode] = useState('');
  const open = list.data?.data.find((w) => w.status === 'confirmation_required');
  const confirm = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/partner/withdrawals/{id}/confirm', { params: { path: { id: String(open!.id) } }, body: { code } }),
      ),
    onSuccess: () => {
      setCode('');
      refresh();
    },
  });
  const needsMessenger =
    profile.data?.messenger_linked === false ||
    (request.error instanceof ApiError && request.error.code === 'messenger_not_linked');
  return (
    <Page title={t('wd.title')}>
      {needsMessenger && (
        // The yellow alert's own title colour is below AA on its background: body text, and a darker link.
        <Alert
          color="yellow"
          title={t('wd.messengerTitle')}
          data-testid="needs-messenger"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          <Text size="sm">{t('wd.messengerWhy')}</Text>
          <Anchor component={Link} to="/profile" fw={600} size="sm" c="blue.9">
            {t('wd.messengerGo')}
          </Anchor>
        </Alert>
      )}
      <Card withBorder>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            saveBank.mutate();
          }}
        >
          <Stack>
            <Text fw={600}>{t('wd.bank')}</Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {BANK.map((f) => (
                <TextInput
                  key={f}
                  label={t(`wd.${f}`)}
                  value={form[f] ?? ''}
                  placeholder={f === 'iban' ? (bank.data?.iban ?? '') : undefined}
                  onChange={(e) => setForm({ ...form, [f]: e.currentTarget.value })}
                />
              ))}
            </SimpleGrid>
            <ErrorAlert error={saveBank.error ?? bank.error} />
            <Button type="submit" w="fit-content" variant="default" loading={saveBank.isPending}>
              {t('common.save')}
            </Button>
          </Stack>
        </form>
      </Card>
      <Card withBorder>
        {open ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              confirm.mutate();
            }}
          >
            <Group align="end">
              <TextInput
                label={t('wd.code')}
                inputMode="numeric"
                required
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
              />
              <Button type="submit" loading={confirm.isPending}>
                {t('wd.confirm')}
              </Button>
            </Group>
          </form>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              request.mutate();
            }}
          >
            <Group align="end">
              <NumberInput
                label={t('wd.amount')}
                min={30000}
                allowDecimal={false}
                thousandSeparator=" "
                value={amount}
                onChange={setAmount}
              />
              <Button type="submit" loading={request.isPending}>
                {t('wd.request')}
              </Button>
            </Group>
          </form>
        )}
        <ErrorAlert error={request.error ?? confirm.error} />
      </Card>
      <ErrorAlert error={list.error} />
      <Rows
        testId="withdrawals"
        rows={list.data?.data}
        rowKey={(w) => w.id}
        columns={[
          { label: t('common.amount'), cell: (w) => tenge(w.amount), align: 'right' },
          { label: t('common.status'), cell: (w) => <StatusBadge status={w.status} kind="withdrawal_status" /> },
          { label: t('common.created'), cell: (w) => dateTime(w.created_at, i18n.language) },
          {
            label: t('common.actions'),
            cell: (w) =>
              w.status === 'paid' && (
                <Button size="xs" variant="default" onClick={() => void downloadAct(w.id)}>
                  {t('wd.act')}
                </Button>
              ),
          },
        ]}
      />
    </Page>
  );
}
