// The payments page's search form: status, a text over comment and id, a day range (Almaty days), an exact
// amount and a phone's last digits. It edits a draft; "Search" checks it and hands it over (the page puts it
// in the URL), "Clear" empties it. A field's problem is said under it, and nothing is asked meanwhile. When the
// URL changes otherwise (back, forward, a link), the form shows that search.
import { Button, Grid, Group, Select, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWords } from '../../components/words.ts';
import './i18n-search.ts';
import { EMPTY_SEARCH, formOf, paramsOf, problemsOf, Q_MAX, type SearchForm } from './payment-search.ts';

const STATUSES = ['created', 'paid', 'refunded', 'partially_refunded', 'cancelled', 'expired', 'declined'] as const;

export function PaymentSearch({ value, onSearch }: { value: SearchForm; onSearch: (form: SearchForm) => void }) {
  const { t } = useTranslation();
  const { word } = useWords();
  const [draft, setDraft] = useState(value);
  const [checked, setChecked] = useState(false);
  // The URL's search, and the one this form last handed over: the URL catches up with a hand-over a moment
  // later (navigation is asynchronous), and that must not undo what the user typed since.
  const url = paramsOf(value).toString();
  const handed = useRef(url);
  useEffect(() => {
    if (url === handed.current) return;
    handed.current = url;
    setDraft(formOf(new URLSearchParams(url)));
    setChecked(false);
  }, [url]);
  const search = (form: SearchForm) => {
    handed.current = paramsOf(form).toString();
    onSearch(form);
  };
  const problems = checked ? problemsOf(draft) : {};
  const problem = (f: keyof SearchForm) => (problems[f] ? t(`search.problem.${problems[f]}`) : undefined);
  const set = (f: keyof SearchForm) => (e: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [f]: e.currentTarget.value });
  return (
    <form
      role="search"
      aria-label={t('search.title')}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setChecked(true);
        if (Object.keys(problemsOf(draft)).length === 0) search(draft);
      }}
    >
      <Grid gap="xs" align="flex-start">
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <TextInput label={t('search.q')} type="search" value={draft.q} onChange={set('q')} maxLength={Q_MAX} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <Select
            label={t('payments.filter')}
            data={[
              { value: '', label: t('common.all') },
              ...STATUSES.map((s) => ({ value: s, label: word('payment_status', s) })),
            ]}
            value={draft.status}
            onChange={(v) => setDraft({ ...draft, status: v ?? '' })}
            allowDeselect={false}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 3 }}>
          <TextInput
            label={t('search.from')}
            type="date"
            value={draft.from}
            onChange={set('from')}
            error={problem('from')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 3 }}>
          <TextInput label={t('search.to')} type="date" value={draft.to} onChange={set('to')} error={problem('to')} />
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 3 }}>
          <TextInput
            label={t('search.amount')}
            inputMode="numeric"
            value={draft.amount}
            onChange={set('amount')}
            error={problem('amount')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 6, sm: 3 }}>
          <TextInput
            label={t('search.phone')}
            type="tel"
            inputMode="tel"
            value={draft.phone}
            onChange={set('phone')}
            error={problem('phone')}
          />
        </Grid.Col>
      </Grid>
      <Group mt="sm" gap="xs">
        <Button type="submit">{t('search.submit')}</Button>
        <Button
          variant="default"
          onClick={() => {
            setDraft(EMPTY_SEARCH);
            setChecked(false);
            search(EMPTY_SEARCH);
          }}
        >
          {t('search.reset')}
        </Button>
      </Group>
    </form>
  );
}
