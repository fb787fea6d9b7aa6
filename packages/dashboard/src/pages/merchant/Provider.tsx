// The provider accounts of the mode and the connection wizard: a code by SMS (the sandbox's is 000000), or
// with the official API the organization's BIN and then a trade point; health checks and the default.
import { Badge, Button, Card, Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n-more.ts';
import { api, unwrap } from '../../api/client.ts';
import { useMode } from '../../mode.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { notify } from '../../components/notify.ts';
import { useWords } from '../../components/words.ts';

interface Step {
  state: string;
  trade_points?: { id: number; name: string }[];
}

function Wizard() {
  const { t } = useTranslation();
  const { word } = useWords();
  const { mode } = useMode();
  const queries = useQueryClient();
  const q = { query: { mode } };
  const status = useQuery({
    queryKey: ['onboarding', mode],
    queryFn: () => unwrap(api.GET('/onboarding/provider/status', { params: q })),
  });
  const [phone, setPhone] = useState('');
  const [orgBin, setOrgBin] = useState('');
  const [force, setForce] = useState(false);
  const [code, setCode] = useState('');
  const [points, setPoints] = useState<Step['trade_points']>();
  const [point, setPoint] = useState<string | null>(null);
  const done = () => void queries.invalidateQueries();
  const start = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/onboarding/provider/start', {
          params: q,
          body: { ...(phone ? { phone } : {}), ...(orgBin ? { org_bin: orgBin } : {}), ...(force ? { force } : {}) },
        }),
      ),
    onSuccess: (r) => {
      setPoints((r as Step).trade_points);
      done();
    },
  });
  const verify = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/onboarding/provider/verify', {
          params: q,
          body: point ? { trade_point_id: Number(point) } : { code },
        }),
      ),
    onSuccess: () => {
      notify(word('onboarding_state', 'connected'));
      setCode('');
      done();
    },
  });
  const state = status.data?.state ?? 'idle';
  const waiting = state === 'code_sent' || state === 'trade_point_required';
  // The mechanism decides what start asks for: a phone (one-time code) or the organisation's BIN (the
  // official API). A wizard reloaded halfway gets the phone the code went to and the trade points back.
  const official = status.data?.mechanism === 'qrapi';
  const choices = points ?? status.data?.trade_points;
  return (
    <Card withBorder data-testid="onboarding">
      <Stack>
        <Group justify="space-between">
          <Text fw={600}>{t('provider.connect')}</Text>
          <Badge variant="dot" color={state === 'connected' ? 'green' : 'gray'} data-testid="onboarding-state">
            {word('onboarding_state', state)}
          </Badge>
        </Group>
        {!waiting && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              start.mutate();
            }}
          >
            <Stack>
              {!official && (
                <TextInput
                  label={t('provider.phone')}
                  type="tel"
                  value={phone}
                  onChange={(e) => setPhone(e.currentTarget.value)}
                  placeholder="+7 701 123 45 67"
                />
              )}
              <TextInput
                label={t('provider.orgBin')}
                required={official}
                value={orgBin}
                onChange={(e) => setOrgBin(e.currentTarget.value)}
              />
              {state === 'connected' && (
                <Switch
                  label={t('provider.force')}
                  checked={force}
                  onChange={(e) => setForce(e.currentTarget.checked)}
                />
              )}
              <Button
                type="submit"
                w="fit-content"
                loading={start.isPending}
                disabled={state === 'connected' && !force}
              >
                {t('provider.connect')}
              </Button>
            </Stack>
          </form>
        )}
        {waiting && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              verify.mutate();
            }}
          >
            <Stack>
              {state === 'code_sent' && status.data?.phone_masked && (
                <Text size="sm" data-testid="code-sent-to">
                  {t('provider.sentTo', { phone: status.data.phone_masked })}
                </Text>
              )}
              {state === 'trade_point_required' ? (
                <Select
                  label={t('provider.tradePoint')}
                  data={(choices ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
                  value={point}
                  onChange={setPoint}
                />
              ) : (
                <TextInput
                  label={t('provider.code')}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  required
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                />
              )}
              <Button type="submit" w="fit-content" loading={verify.isPending}>
                {t('provider.verify')}
              </Button>
            </Stack>
          </form>
        )}
        <ErrorAlert error={start.error ?? verify.error ?? status.error} />
      </Stack>
    </Card>
  );
}

export default function Provider() {
  const { t } = useTranslation();
  const { mode } = useMode();
  const queries = useQueryClient();
  const accounts = useQuery({
    queryKey: ['accounts', mode],
    queryFn: () => unwrap(api.GET('/me/provider/accounts', { params: { query: { mode } } })),
  });
  const path = (id: number) => ({ path: { id: String(id) } });
  const check = useMutation({
    mutationFn: (id: number) => unwrap(api.POST('/me/provider/accounts/{id}/health-check', { params: path(id) })),
    onSuccess: (h) =>
      notify(`${t('provider.check')}: ${h.ok ? 'OK' : '✗'} (${h.latency_ms} ms)`, h.ok ? 'teal' : 'red'),
  });
  const setDefault = useMutation({
    mutationFn: (id: number) => unwrap(api.POST('/me/provider/accounts/{id}/set-default', { params: path(id) })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['accounts'] }),
  });
  return (
    <Page title={t('provider.title')}>
      <Wizard />
      <Text fw={600}>{t('provider.accounts')}</Text>
      <ErrorAlert error={accounts.error ?? check.error ?? setDefault.error} />
      <Rows
        testId="accounts-table"
        rows={accounts.data?.data}
        rowKey={(a) => a.id}
        columns={[
          {
            label: t('common.description'),
            cell: (a) => `${a.display_name}${a.is_default ? ` · ${t('provider.default')}` : ''}`,
          },
          { label: t('provider.state'), cell: (a) => (a.session_alive ? t('provider.alive') : t('provider.dead')) },
          {
            label: t('common.actions'),
            cell: (a) => (
              <Group gap="xs">
                <Button size="xs" variant="default" onClick={() => check.mutate(a.id)}>
                  {t('provider.check')}
                </Button>
                {!a.is_default && (
                  <Button size="xs" variant="default" onClick={() => setDefault.mutate(a.id)}>
                    {t('provider.makeDefault')}
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
