// What payers see on the hosted checkout page: the name, logo, colour and support e-mail, with a preview
// that follows the form as it is typed.
import { Button, Card, ColorInput, Group, Image, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n-more.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { notify } from '../../components/notify.ts';
import { tenge } from '../../format.ts';

interface Brand {
  display_name: string | null;
  logo_url: string | null;
  brand_color: string | null;
  support_email: string | null;
}

/** Black or white text, whichever reads better on the brand colour (as the checkout page chooses). */
function inkFor(hex: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return '#fff';
  const n = parseInt(m[1], 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255]
    .map((c) => c / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 ? '#000' : '#fff';
}

export default function Branding() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const brand = useQuery({ queryKey: ['branding'], queryFn: () => unwrap(api.GET('/me/branding')) });
  const [form, setForm] = useState<Brand>({
    display_name: null,
    logo_url: null,
    brand_color: null,
    support_email: null,
  });
  useEffect(() => {
    if (brand.data) setForm(brand.data as Brand);
  }, [brand.data]);
  const save = useMutation({
    mutationFn: () => unwrap(api.PATCH('/me/branding', { body: form as never })),
    onSuccess: () => {
      notify(t('common.saved'));
      void queries.invalidateQueries({ queryKey: ['branding'] });
    },
  });
  const color = form.brand_color || '#1971C2';
  const set = (k: keyof Brand) => (v: string) => setForm({ ...form, [k]: v || null });
  return (
    <Page title={t('branding.title')}>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Stack>
            <TextInput
              label={t('branding.display_name')}
              value={form.display_name ?? ''}
              onChange={(e) => set('display_name')(e.currentTarget.value)}
            />
            <TextInput
              label={t('branding.logo_url')}
              value={form.logo_url ?? ''}
              onChange={(e) => set('logo_url')(e.currentTarget.value)}
            />
            <ColorInput
              label={t('branding.brand_color')}
              value={form.brand_color ?? ''}
              onChange={set('brand_color')}
              format="hex"
              withEyeDropper={false}
            />
            <TextInput
              label={t('branding.support_email')}
              type="email"
              value={form.support_email ?? ''}
              onChange={(e) => set('support_email')(e.currentTarget.value)}
            />
            <ErrorAlert error={save.error ?? brand.error} />
            <Button type="submit" loading={save.isPending} w="fit-content">
              {t('common.save')}
            </Button>
          </Stack>
        </form>
        <Card withBorder aria-label={t('branding.preview')} data-testid="branding-preview">
          <Text size="xs" c="dimmed" mb="xs">
            {t('branding.preview')}
          </Text>
          <Group gap="sm" mb="md">
            {form.logo_url?.startsWith('https://') && <Image src={form.logo_url} alt="" h={32} w="auto" />}
            <Title order={2} size="h4" data-testid="preview-name">
              {form.display_name || '—'}
            </Title>
          </Group>
          <Text>{t('branding.sample')}</Text>
          <Text fw={700} size="xl">
            {tenge(15000)}
          </Text>
          <Button
            mt="md"
            fullWidth
            styles={{ root: { background: color, color: inkFor(color) } }}
            data-testid="preview-button"
            tabIndex={-1}
          >
            {t('branding.pay')}
          </Button>
          {form.support_email && (
            <Text size="xs" c="dimmed" mt="sm">
              {form.support_email}
            </Text>
          )}
        </Card>
      </SimpleGrid>
    </Page>
  );
}
