// The frame of the public pages: a centred card with the language choice.
import { Center, Paper, Stack, Title, SegmentedControl } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '../../i18n/index.ts';

export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.title = `${title} · Tolem`;
  }, [title]);
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={420}>
        <Stack>
          <SegmentedControl
            size="xs"
            aria-label={t('lang.label')}
            value={i18n.language}
            onChange={(v) => setLanguage(v as Language)}
            data={LANGUAGES.map((l) => ({ value: l, label: l.toUpperCase() }))}
          />
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
