// The payments search as the page keeps it: the form's fields, their place in the page's URL (so a search can
// be reloaded, bookmarked and sent), their checks before anything is asked, and the API query they make.
// Days are Almaty's: a day's search runs from its 00:00 to its 23:59:59.999 at UTC+5, the zone every time of
// the dashboard is shown in.

export interface SearchForm {
  status: string;
  from: string;
  to: string;
  amount: string;
  phone: string;
  q: string;
}

const FIELDS = ['status', 'from', 'to', 'amount', 'phone', 'q'] as const;
export const EMPTY_SEARCH: SearchForm = { status: '', from: '', to: '', amount: '', phone: '', q: '' };

/** The longest text the API searches for (its `q`). */
export const Q_MAX = 100;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ALMATY = '+05:00';

export function formOf(params: URLSearchParams): SearchForm {
  const form = { ...EMPTY_SEARCH };
  for (const f of FIELDS) form[f] = params.get(f) ?? '';
  return form;
}

/** The URL's query of a search: only the fields that are filled. */
export function paramsOf(form: SearchForm): URLSearchParams {
  const params = new URLSearchParams();
  for (const f of FIELDS) if (form[f].trim()) params.set(f, form[f].trim());
  return params;
}

/**
 * The phone's last digits as the API takes them: whatever the user typed (`+7 701 234 56 78`, `56-78`), its
 * digits, at most the last ten (the number without its country code).
 */
export const phoneDigits = (value: string) => value.replace(/\D/g, '').slice(-10);

export type SearchProblem = 'dateForm' | 'dateOrder' | 'amountWhole' | 'phoneDigits';

/** What is wrong with the form, field by field (keys of the i18n bundle's `search.problem.*`). */
export function problemsOf(form: SearchForm): Partial<Record<keyof SearchForm, SearchProblem>> {
  const out: Partial<Record<keyof SearchForm, SearchProblem>> = {};
  if (form.from && !DAY.test(form.from)) out.from = 'dateForm';
  if (form.to && !DAY.test(form.to)) out.to = 'dateForm';
  if (!out.from && !out.to && form.from && form.to && form.from > form.to) out.to = 'dateOrder';
  const amount = form.amount.replace(/\s/g, '');
  if (amount && !/^[1-9]\d{0,14}$/.test(amount)) out.amount = 'amountWhole';
  if (form.phone.trim() && phoneDigits(form.phone).length < 4) out.phone = 'phoneDigits';
  return out;
}

export interface SearchQuery {
  status?: 'created' | 'paid' | 'expired' | 'cancelled' | 'declined' | 'partially_refunded' | 'refunded';
  created_from?: string;
  created_to?: string;
  amount?: number;
  phone_last?: string;
  q?: string;
}

/** The API's query of a checked form (a field with a problem is left out: the form shows it instead). */
export function queryOf(form: SearchForm): SearchQuery {
  const problems = problemsOf(form);
  const query: SearchQuery = {};
  if (form.status) query.status = form.status as SearchQuery['status'];
  if (form.from && !problems.from) query.created_from = `${form.from}T00:00:00${ALMATY}`;
  if (form.to && !problems.to) query.created_to = `${form.to}T23:59:59.999${ALMATY}`;
  if (form.amount && !problems.amount) query.amount = Number(form.amount.replace(/\s/g, ''));
  if (form.phone.trim() && !problems.phone) query.phone_last = phoneDigits(form.phone);
  const q = form.q.trim().slice(0, Q_MAX);
  if (q) query.q = q;
  return query;
}
