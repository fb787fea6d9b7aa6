// The plan: the current one, the plans on sale, and buying one by a QR paid in the provider's app (the
// page asks every 3 s whether the payment came and the plan is active).
import { Badge, Button, Card, Group, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import './i18n-more.ts';
import { api, unwrap } from '../../api/client.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { dateWords, tenge } from '../../format.ts';
import { useWords } from '../../components/words.ts';

export default function Subscription() {
  const { t, i18n } = useTranslation();
  const { word, count } = useWords();
  const me = useMe();
  const queries = useQueryClient();
  const plans = useQuery({ queryKey: ['plans'], queryFn: () => unwrap(api.GET('/v1/subscription/plans')) });
  const pay = useMutation({
    mutationFn: (plan: string) => unwrap(api.POST('/v1/subscription/pay', { body: { plan: plan as never } })),
  });
  const op = pay.data?.operation_id;
  const check = useQuery({
    queryKey: ['plan-check', op],
    queryFn: () => unwrap(api.GET('/v1/subscription/check/{op_id}', { params: { path: { op_id: op! } } })),
    enabled: Boolean(op),
    refetchInterval: (q) => (q.state.data?.activated ? false : 3000),
  });
  const [qr, setQr] = useState<string>();
  useEffect(() => {
    if (pay.data?.qr_token) void QRCode.toDataURL(pay.data.qr_token, { margin: 1, width: 220 }).then(setQr);
  }, [pay.data?.qr_token]);
  useEffect(() => {
    if (check.data?.activated) void queries.invalidateQueries({ queryKey: ['me'] });
  }, [check.data?.activated, queries]);
  return (
    <Page title={t('plan.title')}>
      {me.data && (
        <Text>
          {t('plan.current')}: <b>{word('plan', me.data.plan)}</b>
          {me.data.plan_expires_at ? ` · ${dateWords(me.data.plan_expires_at, i18n.language)}` : ''}
        </Text>
      )}
      <ErrorAlert error={plans.error ?? pay.error ?? check.error} />
      <SimpleGrid cols={{ base: 1, sm: 3 }} data-testid="plans">
        {plans.data?.data.map((p) => (
          <Card key={p.plan} withBorder>
            <Stack gap="xs">
              <Text fw={700}>{word('plan', p.plan)}</Text>
              <Text size="xl">{tenge(p.amount)}</Text>
              <Text size="sm" c="dimmed">
                {count('days', p.period_days)}
              </Text>
              <Button
                variant="default"
                onClick={() => pay.mutate(p.plan)}
                loading={pay.isPending && pay.variables === p.plan}
              >
                {t('plan.choose')}
              </Button>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      {pay.data && (
        <Card withBorder data-testid="plan-qr">
          <Group align="start">
            {qr && <Image src={qr} alt="QR" w={220} h={220} />}
            <Stack gap="xs">
              <Text>{t('plan.scan')}</Text>
              <Text fw={700}>{tenge(pay.data.amount)}</Text>
              {check.data?.activated ? (
                <Badge variant="dot" color="green">
                  {t('plan.activated')}
                </Badge>
              ) : (
                <Text c="dimmed">{t('plan.waiting')}</Text>
              )}
            </Stack>
          </Group>
        </Card>
      )}
    </Page>
  );
}
