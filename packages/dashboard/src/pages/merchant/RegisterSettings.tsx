// A register's settings, the same fields at set-up (the wizard's last step) and when edited: its name, the
// payment type on its receipts, VAT (the rate typed in percent, sent in basis points), the item name for a
// payment without lines, the section, which provider accounts it covers, and whether receipts go by
// themselves.
import { NumberInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client.ts';
import { useWords } from '../../components/words.ts';
import { useMode } from '../../mode.tsx';
import type { Register } from './fiscal-parts.tsx';

/** The choice of every provider account of the mode (a Select's value is never empty). */
const ALL = 'all';

export interface Settings {
  display_name: string;
  payment_type: 'mobile' | 'card';
  vat_payer: boolean;
  /** percent, as typed */
  vat_rate: number | string;
  default_item_name: string;
  section_code: string;
  /** ALL for every account of the mode */
  provider_account: string;
  auto: boolean;
}

/** A new register's: a QR payment is a mobile one, VAT at the standard 16% when the merchant pays it. */
export const newSettings = (itemName: string): Settings => ({
  display_name: '',
  payment_type: 'mobile',
  vat_payer: false,
  vat_rate: 16,
  default_item_name: itemName,
  section_code: '',
  provider_account: ALL,
  auto: true,
});

export const settingsOf = (r: Register): Settings => ({
  display_name: r.display_name ?? '',
  payment_type: r.payment_type,
  vat_payer: r.vat_payer,
  vat_rate: r.vat_payer ? r.vat_rate_bps / 100 : 16,
  default_item_name: r.default_item_name,
  section_code: r.section_code ?? '',
  provider_account: r.provider_account_id === null ? ALL : String(r.provider_account_id),
  auto: r.auto,
});

/** The API's fields; the rate is only sent for a VAT payer (a rate of a non-payer means nothing). */
export const bodyOf = (s: Settings) => ({
  display_name: s.display_name.trim() || null,
  payment_type: s.payment_type,
  vat_payer: s.vat_payer,
  ...(s.vat_payer ? { vat_rate_bps: Math.round(Number(s.vat_rate) * 100) } : {}),
  default_item_name: s.default_item_name.trim(),
  section_code: s.section_code.trim() || null,
  provider_account_id: s.provider_account === ALL ? null : Number(s.provider_account),
  auto: s.auto,
});

export function RegisterSettings({ value, onChange }: { value: Settings; onChange: (s: Settings) => void }) {
  const { t } = useTranslation();
  const { word } = useWords();
  const { mode } = useMode();
  const accounts = useQuery({
    queryKey: ['provider-accounts', mode],
    queryFn: () => unwrap(api.GET('/me/provider/accounts', { params: { query: { mode } } })),
  });
  const set = (part: Partial<Settings>) => onChange({ ...value, ...part });
  return (
    <Stack gap="sm">
      <TextInput
        label={t('fiscal.displayName')}
        maxLength={100}
        value={value.display_name}
        onChange={(e) => set({ display_name: e.currentTarget.value })}
      />
      <Select
        label={t('fiscal.paymentType')}
        description={t('fiscal.paymentTypeHint')}
        data={(['mobile', 'card'] as const).map((v) => ({ value: v, label: word('fiscal_payment_type', v) }))}
        value={value.payment_type}
        onChange={(v) => v && set({ payment_type: v as Settings['payment_type'] })}
        allowDeselect={false}
      />
      <Switch
        label={t('fiscal.vatPayer')}
        checked={value.vat_payer}
        onChange={(e) => set({ vat_payer: e.currentTarget.checked })}
      />
      {value.vat_payer && (
        <NumberInput
          label={t('fiscal.vatRate')}
          min={0}
          max={100}
          decimalScale={2}
          required
          value={value.vat_rate}
          onChange={(v) => set({ vat_rate: v })}
        />
      )}
      <TextInput
        label={t('fiscal.itemName')}
        description={t('fiscal.itemNameHint')}
        required
        maxLength={128}
        value={value.default_item_name}
        onChange={(e) => set({ default_item_name: e.currentTarget.value })}
      />
      <TextInput
        label={t('fiscal.section')}
        maxLength={20}
        value={value.section_code}
        onChange={(e) => set({ section_code: e.currentTarget.value })}
      />
      <Select
        label={t('fiscal.account')}
        data={[
          { value: ALL, label: t('fiscal.allAccounts') },
          ...(accounts.data?.data ?? []).map((a) => ({ value: String(a.id), label: a.display_name })),
        ]}
        value={value.provider_account}
        onChange={(v) => set({ provider_account: v ?? ALL })}
        allowDeselect={false}
      />
      <Switch
        label={t('fiscal.auto')}
        description={t('fiscal.autoHint')}
        checked={value.auto}
        onChange={(e) => set({ auto: e.currentTarget.checked })}
      />
    </Stack>
  );
}
