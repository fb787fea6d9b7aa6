// The organization's requisites (for acts and receipts): the API checks the BIN and the rest, and says
// which field is wrong.
import { Button, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n-more.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { notify } from '../../components/notify.ts';
import { useWords } from '../../components/words.ts';

const TEXT_FIELDS = [
  'legal_name',
  'bin',
  'legal_address',
  'actual_address',
  'director_name',
  'phone',
  'email',
  'kbe',
] as const;
type Org = Partial<Record<(typeof TEXT_FIELDS)[number], string | null>> & {
  org_type?: 'ip' | 'too' | 'ao' | 'other' | null;
  vat_payer?: boolean | null;
};

export default function Organization() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const queries = useQueryClient();
  const org = useQuery({ queryKey: ['organization'], queryFn: () => unwrap(api.GET('/me/organization')) });
  const [form, setForm] = useState<Org>({});
  useEffect(() => {
    if (org.data) setForm(org.data as Org);
  }, [org.data]);
  const save = useMutation({
    mutationFn: () => {
      const body: Org = { org_type: form.org_type ?? null, vat_payer: form.vat_payer ?? false };
      for (const f of TEXT_FIELDS) body[f] = form[f] || null;
      return unwrap(api.PUT('/me/organization', { body: body as never }));
    },
    onSuccess: () => {
      notify(t('common.saved'));
      void queries.invalidateQueries({ queryKey: ['organization'] });
    },
  });
  return (
    <Page title={t('org.title')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('org.org_type')}
              data={(['ip', 'too', 'ao', 'other'] as const).map((v) => ({ value: v, label: word('org_type', v) }))}
              value={form.org_type ?? null}
              onChange={(v) => setForm({ ...form, org_type: v as Org['org_type'] })}
              clearable
            />
            {TEXT_FIELDS.map((f) => (
              <TextInput
                key={f}
                label={t(`org.${f}`)}
                value={form[f] ?? ''}
                onChange={(e) => setForm({ ...form, [f]: e.currentTarget.value })}
                error={save.error && (save.error as { param?: string }).param === f ? true : undefined}
              />
            ))}
          </SimpleGrid>
          <Switch
            label={t('org.vat_payer')}
            checked={Boolean(form.vat_payer)}
            onChange={(e) => setForm({ ...form, vat_payer: e.currentTarget.checked })}
          />
          <ErrorAlert
            error={save.error ?? org.error}
            field={(p) => (i18n.exists(`org.${p}`) ? t(`org.${p}`) : undefined)}
          />
          <Button type="submit" loading={save.isPending} w="fit-content">
            {t('common.save')}
          </Button>
        </Stack>
      </form>
    </Page>
  );
}
