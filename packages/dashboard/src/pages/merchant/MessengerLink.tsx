// The user's messenger chat (decisions 17, 18): bound or not, and a one-time link (15 minutes) to bind it,
// as a link to open on this device and a QR to scan with the phone. While a link is out, GET /me is read
// every few seconds, so the card turns "connected" as soon as the bot has the /start. Unbinding is the
// bot's /stop (the API has no call for it). Partners need it for their withdrawal codes.
import { Anchor, Badge, Button, Card, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n-guide.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { dateTime } from '../../format.ts';

function Qr({ url, label }: { url: string; label: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    void QRCode.toDataURL(url, { margin: 1, width: 200 }).then(setSrc);
  }, [url]);
  return src ? <Image src={src} alt={label} w={200} h={200} data-testid="messenger-qr" /> : null;
}

export function MessengerLink() {
  const { t, i18n } = useTranslation();
  // Whether a chat was bound when the link was asked for: binding a first chat shows on GET /me, binding
  // another one instead does not (the flag stays true), so only the first closes the link by itself.
  const [boundBefore, setBoundBefore] = useState<boolean>();
  const issue = useMutation({ mutationFn: () => unwrap(api.POST('/me/messenger-link', { body: {} })) });
  const out = issue.data && new Date(issue.data.expires_at).getTime() > Date.now() ? issue.data : undefined;
  // The same query as useMe, read more often while a link waits for the bot.
  const me = useQuery({
    queryKey: ['me'],
    queryFn: () => unwrap(api.GET('/me')),
    staleTime: 60_000,
    refetchInterval: (q) => (out && !q.state.data?.messenger_linked ? 3000 : false),
  });
  const linked = me.data?.messenger_linked;
  const { data: issued, reset } = issue;
  useEffect(() => {
    // Bound: the link is spent; forget it so a later "link again" starts afresh.
    if (linked && issued && boundBefore === false) reset();
  }, [linked, issued, boundBefore, reset]);
  return (
    <Card withBorder maw={480} data-testid="messenger-card">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('messenger.title')}
          </Title>
          {me.data && (
            <Badge color={linked ? 'green' : 'gray'} variant="dot" data-testid="messenger-state">
              {linked ? t('messenger.linked') : t('messenger.notLinked')}
            </Badge>
          )}
        </Group>
        <Text size="sm">{linked ? t('messenger.linkedHint') : t('messenger.why')}</Text>
        {out ? (
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('messenger.steps')}</Text>
            <Anchor href={out.url} target="_blank" rel="noopener noreferrer" data-testid="messenger-url" fw={600}>
              {t('messenger.open')}
            </Anchor>
            <Qr url={out.url} label={t('messenger.qr')} />
            <Text size="xs" c="dimmed">
              {t('messenger.expires', { at: dateTime(out.expires_at, i18n.language) })}
            </Text>
            {!linked && (
              <Text size="sm" role="status">
                {t('messenger.waiting')}
              </Text>
            )}
            <Button size="xs" variant="default" onClick={reset}>
              {t('common.close')}
            </Button>
          </Stack>
        ) : (
          <Button
            variant={linked ? 'default' : 'filled'}
            w="fit-content"
            loading={issue.isPending}
            onClick={() => {
              setBoundBefore(linked);
              issue.mutate();
            }}
          >
            {linked ? t('messenger.relink') : t('messenger.link')}
          </Button>
        )}
        <ErrorAlert error={issue.error} />
      </Stack>
    </Card>
  );
}
