// The request log: the client's latest API calls, with the key (or the partner) that made them.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './i18n-more.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { dateTime } from '../../format.ts';
import { useWords } from '../../components/words.ts';

export default function Logs() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const logs = useQuery({
    queryKey: ['logs'],
    queryFn: () => unwrap(api.GET('/me/logs', { params: { query: { limit: 100 } } })),
  });
  return (
    <Page title={t('logs.title')}>
      <ErrorAlert error={logs.error} />
      <Rows
        testId="logs-table"
        rows={logs.data?.data}
        rowKey={(l) => l.id}
        columns={[
          { label: t('common.created'), cell: (l) => dateTime(l.created_at, i18n.language) },
          { label: t('logs.method'), cell: (l) => l.method },
          { label: t('logs.path'), cell: (l) => l.path },
          { label: t('logs.status'), cell: (l) => l.status, align: 'right' },
          { label: t('logs.duration'), cell: (l) => l.duration_ms, align: 'right' },
          {
            label: t('logs.key'),
            cell: (l) =>
              l.api_key_prefix ?? (l.actor ? `${word('log_actor', l.actor.kind)} ${l.actor.partner_id}` : '—'),
          },
        ]}
      />
    </Page>
  );
}
