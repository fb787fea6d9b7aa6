// The user's notifications, newest first, in the user's language (notice-text.ts); marking them all read.
import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './i18n-more.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import '../../components/words.ts';
import { addBundle } from '../../i18n/index.ts';
import { noticeBundle } from '../../i18n/notices.ts';
import { dateTime } from '../../format.ts';
import { noticeText } from './notice-text.ts';

addBundle(noticeBundle);

export default function Notifications() {
  const { t, i18n } = useTranslation();
  const queries = useQueryClient();
  const list = useQuery({
    queryKey: ['notifications'],
    queryFn: () => unwrap(api.GET('/me/notifications', { params: { query: { limit: 100 } } })),
  });
  const readAll = useMutation({
    mutationFn: () => unwrap(api.POST('/me/notifications/read-all', {})),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['notifications'] }),
  });
  return (
    <Page
      title={t('notifications.title')}
      actions={
        <Button variant="default" onClick={() => readAll.mutate()}>
          {t('notifications.readAll')}
        </Button>
      }
    >
      <ErrorAlert error={list.error ?? readAll.error} />
      <Stack data-testid="notifications">
        {list.data?.data.map((n) => {
          const text = noticeText(n, t, i18n.language, (k) => i18n.exists(k));
          return (
            <Card key={n.id} withBorder>
              <Group justify="space-between">
                <Text fw={600}>{text.title}</Text>
                {!n.read_at && <Badge variant="dot">{t('notifications.unread')}</Badge>}
              </Group>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {text.body}
              </Text>
              <Text size="xs" c="dimmed">
                {dateTime(n.created_at, i18n.language)}
              </Text>
            </Card>
          );
        })}
        {list.data?.data.length === 0 && <Text c="dimmed">{t('common.empty')}</Text>}
      </Stack>
    </Page>
  );
}
