// The dashboard's own words (decisions 30, issue 41 item 6): every error code of the server (src/errors.ts)
// and of the SDK has words in ru, kk and en; every enum value the API lists for a field the dashboard shows
// has words in the three languages, and no words are kept for values the API no longer has; counts agree
// with their number by each language's plural rules; Kazakh dates are written with Kazakh month names
// without Intl's kk data (Chromium has none); notifications are worded from their type and params, with
// only params the server sends; and no page renders such a field as it came.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next, { type TFunction } from 'i18next';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_STATUS } from '../../src/errors.ts';
import {
  NOTIFICATION_PARAMS,
  NOTIFICATION_TYPES,
  NOTIFICATION_VARIANTS,
} from '../../src/domain/notifications/kinds.ts';
import { CLIENT_ERROR_CODES, ERROR_WORDS } from '../../packages/dashboard/src/i18n/errors.ts';
import { ENUM_WORDS, enumBundle, type EnumKind } from '../../packages/dashboard/src/i18n/enums.ts';
import { countBundle } from '../../packages/dashboard/src/i18n/counts.ts';
import { NOTICE_WORDS, noticeBundle } from '../../packages/dashboard/src/i18n/notices.ts';
import { noticeText } from '../../packages/dashboard/src/pages/merchant/notice-text.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { inlinedDoc } from '../helpers/openapi.ts';

const LANGUAGES = ['ru', 'kk', 'en'] as const;
const CYRILLIC = /[\u0400-\u04ff]/;

/** One language's words: present, and in that language's script. */
function expectWords(words: Record<string, string> | undefined, what: string): void {
  for (const l of LANGUAGES) {
    const w = words?.[l];
    expect(w?.trim(), `${what}: no ${l} words`).toBeTruthy();
    if (l === 'en') expect(CYRILLIC.test(w!), `${what}: en words in Cyrillic: ${w}`).toBe(false);
  }
}

describe('error words', () => {
  it('every code of the server and of the SDK has words in ru, kk and en', () => {
    const codes = [...Object.keys(ERROR_STATUS), ...CLIENT_ERROR_CODES];
    expect(codes.filter((c) => !ERROR_WORDS[c])).toEqual([]);
    for (const c of codes) {
      expectWords(ERROR_WORDS[c], c);
      expect(CYRILLIC.test(ERROR_WORDS[c].ru), `${c}: ru`).toBe(true);
      expect(ERROR_WORDS[c].kk, `${c}: kk is the ru text`).not.toBe(ERROR_WORDS[c].ru);
    }
    // Words for a code the server no longer has are dead weight: drop them with the code.
    expect(Object.keys(ERROR_WORDS).filter((c) => !codes.includes(c))).toEqual([]);
  });
});

// Where each kind of words comes from: the fields of the API's answers that the dashboard shows as words.
// [method, path, field] with the field as a dotted path into the 200 answer (arrays and nullable unions
// are passed through).
const SOURCES: Record<EnumKind, [string, string, string][]> = {
  payment_status: [
    ['get', '/me/payments', 'data.status'],
    ['get', '/me/payments/status/{op_id}', 'status'],
    ['get', '/partner/clients/{id}', 'payments.status'],
  ],
  refund_status: [['get', '/pay/{op_id}/refunds/{refund_id}/status', 'status']],
  link_status: [['get', '/v2/payment-links', 'data.status']],
  delivery_status: [
    ['get', '/me/webhooks/{id}/deliveries', 'data.status'],
    ['get', '/me/webhooks', 'data.last_delivery_status'],
  ],
  event_type: [
    ['get', '/v2/events', 'data.type'],
    ['get', '/me/webhooks/{id}/deliveries', 'data.event_type'],
  ],
  mode: [['get', '/me/webhooks', 'data.mode']],
  member_role: [['get', '/me/team', 'data.role']],
  member_status: [['get', '/me/team', 'data.status']],
  ticket_status: [
    ['get', '/me/tickets', 'data.status'],
    ['get', '/admin/tickets', 'data.status'],
  ],
  partner_status: [
    ['get', '/partner/me', 'status'],
    ['get', '/admin/partners', 'data.status'],
  ],
  partner_client_status: [['get', '/partner/clients', 'data.status']],
  client_origin: [['get', '/partner/clients', 'data.origin']],
  commission_status: [
    ['get', '/partner/commissions', 'data.status'],
    ['get', '/partner/clients/{id}', 'commissions.status'],
  ],
  withdrawal_status: [
    ['get', '/partner/withdrawals', 'data.status'],
    ['get', '/admin/withdrawals', 'data.status'],
  ],
  ledger_type: [['get', '/partner/balance/transactions', 'data.type']],
  plan: [
    ['get', '/me', 'plan'],
    ['get', '/admin/clients', 'data.plan'],
    ['get', '/partner/commissions', 'data.plan'],
    ['get', '/partner/clients/{id}', 'plan'],
    ['get', '/v1/subscription/plans', 'data.plan'],
  ],
  onboarding_state: [['get', '/onboarding/provider/status', 'state']],
  funnel_step: [['get', '/partner/analytics/funnel', 'step']],
  org_type: [['get', '/me/organization', 'org_type']],
  log_actor: [['get', '/me/logs', 'data.actor.kind']],
  fiscal_register_status: [['get', '/me/fiscal/registers', 'data.status']],
  fiscal_driver: [['get', '/me/fiscal/registers', 'data.driver']],
  fiscal_payment_type: [
    ['get', '/me/fiscal/registers', 'data.payment_type'],
    ['get', '/v2/receipts', 'data.payment_type'],
  ],
  receipt_status: [
    ['get', '/v2/receipts', 'data.status'],
    ['get', '/me/payments/status/{op_id}', 'receipt.status'],
  ],
  receipt_kind: [['get', '/v2/receipts', 'data.kind']],
};

type Schema = {
  type?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
};

/** The values a schema lists at a dotted field path (through arrays and anyOf), or null where it lists none. */
function enumAt(schema: Schema, field: string[]): string[] | null {
  if (schema.anyOf) {
    const found = schema.anyOf.map((s) => enumAt(s, field)).filter((e): e is string[] => e !== null);
    return found.length ? [...new Set(found.flat())] : null;
  }
  if (schema.items) return enumAt(schema.items, field);
  if (field.length === 0) return schema.enum ? schema.enum.map(String) : null;
  const next = schema.properties?.[field[0]];
  return next ? enumAt(next, field.slice(1)) : null;
}

describe('enum words', () => {
  let t: TestApp;
  let doc: any;
  beforeAll(async () => {
    t = await buildTestApp();
    doc = await inlinedDoc(t.app);
  });
  afterAll(() => t?.close());

  it.each(Object.keys(SOURCES) as EnumKind[])('%s: words for every value the API lists, and no others', (kind) => {
    const values = new Set<string>();
    for (const [method, url, field] of SOURCES[kind]) {
      const schema = doc.paths[url]?.[method]?.responses?.['200']?.content?.['application/json']?.schema;
      expect(schema, `${method.toUpperCase()} ${url}`).toBeDefined();
      const listed = enumAt(schema, field.split('.'));
      // A field without an enum cannot be checked: give it one in its route schema (src/http/shapes/).
      expect(listed, `${method.toUpperCase()} ${url} ${field} lists no values`).not.toBeNull();
      for (const v of listed!) values.add(v);
    }
    const words: Record<string, Record<string, string>> = ENUM_WORDS[kind];
    expect(
      [...values].filter((v) => !words[v]),
      `${kind}: values without words`,
    ).toEqual([]);
    expect(
      Object.keys(words).filter((v) => !values.has(v)),
      `${kind}: words for values the API does not list`,
    ).toEqual([]);
    for (const v of values) expectWords(words[v], `${kind}.${v}`);
  });

  it('names every kind of words it has', () => {
    expect(Object.keys(ENUM_WORDS).sort()).toEqual(Object.keys(SOURCES).sort());
  });

  it('words the notification types the API lists', () => {
    const schema = doc.paths['/me/notifications'].get.responses['200'].content['application/json'].schema;
    expect(enumAt(schema, ['data', 'type'])?.sort()).toEqual([...NOTIFICATION_TYPES].sort());
  });
});

async function i18nWith(lng: string): Promise<{ t: TFunction; exists: (key: string) => boolean }> {
  const i = i18next.createInstance();
  const resources = Object.fromEntries(
    LANGUAGES.map((l) => [l, { translation: { ...enumBundle[l], ...countBundle[l], ...noticeBundle[l] } }]),
  );
  await i.init({ lng, fallbackLng: false, resources, interpolation: { escapeValue: false } });
  return { t: i.t, exists: (key) => i.exists(key) };
}

describe('counts', () => {
  it('each noun has every plural form each language uses', () => {
    for (const l of LANGUAGES) {
      const nouns = new Set(Object.keys(countBundle[l]).map((k) => k.replace(/_[a-z]+$/, '')));
      expect([...nouns].sort()).toEqual(['count.days', 'count.payments']);
      for (const noun of nouns) {
        for (const form of new Intl.PluralRules(l).resolvedOptions().pluralCategories) {
          expect(countBundle[l][`${noun}_${form}`], `${l} ${noun}_${form}`).toBeTruthy();
        }
      }
    }
  });

  it('agree with their number: «1 платёж», «2 платежа», «5 платежей», «21 платёж»', async () => {
    const { t: ru } = await i18nWith('ru');
    expect([1, 2, 5, 11, 21, 22, 25, 101, 111].map((count) => ru('count.payments', { count }))).toEqual([
      '1 платёж',
      '2 платежа',
      '5 платежей',
      '11 платежей',
      '21 платёж',
      '22 платежа',
      '25 платежей',
      '101 платёж',
      '111 платежей',
    ]);
    expect([1, 3, 30].map((count) => ru('count.days', { count }))).toEqual(['1 день', '3 дня', '30 дней']);
    const { t: kk } = await i18nWith('kk');
    expect([1, 5].map((count) => kk('count.payments', { count }))).toEqual(['1 төлем', '5 төлем']);
    const { t: en } = await i18nWith('en');
    expect([1, 2].map((count) => en('count.days', { count }))).toEqual(['1 day', '2 days']);
  });
});

describe('dates', () => {
  // Chromium's ICU has no Kazakh month names (it answers `2026 M11 27`): the kk forms must not ask Intl
  // for kk at all, which this stand-in for Intl.DateTimeFormat refuses.
  let f: typeof import('../../packages/dashboard/src/format.ts');
  const Real = Intl.DateTimeFormat;
  beforeAll(async () => {
    Object.assign(Intl, {
      DateTimeFormat: function (locale?: string | string[], opts?: Intl.DateTimeFormatOptions) {
        if (String(locale).startsWith('kk')) throw new Error('Intl asked for kk');
        return new Real(locale, opts);
      },
    });
    vi.resetModules();
    f = await import('../../packages/dashboard/src/format.ts');
  });
  afterAll(() => Object.assign(Intl, { DateTimeFormat: Real }));

  it('writes Kazakh dates in words, in Almaty time', () => {
    expect(f.dateWords('2026-11-27T10:00:00Z', 'kk')).toBe('27 қараша 2026');
    // 19:30 UTC on 30 November is 00:30 on 1 December in Almaty.
    expect(f.dateWords('2026-11-30T19:30:00Z', 'kk')).toBe('1 желтоқсан 2026');
    expect(f.dateTime('2026-11-30T19:30:00Z', 'kk')).toBe('01.12.2026, 00:30');
    expect(f.day('2026-01-05T12:00:00Z', 'kk')).toBe('05 қаң.');
    expect(f.monthYear('2026-09', 'kk')).toBe('қыркүйек 2026');
  });

  it('leaves Russian and English dates to Intl, in Almaty time', () => {
    expect(f.dateWords('2026-11-30T19:30:00Z', 'ru')).toBe('1 декабря 2026 г.');
    expect(f.dateTime('2026-11-30T19:30:00Z', 'ru')).toBe('01.12.2026, 00:30');
    expect(f.dateWords('2026-11-27T10:00:00Z', 'en')).toBe('27 November 2026');
    expect(f.monthYear('2026-11', 'ru')).toBe('ноябрь 2026 г.');
  });
});

describe('notification words', () => {
  // Kinds whose body is the stored one: a support answer is the supporter's text, not ours to word.
  const STORED_BODY = ['ticket.answered'];
  const SAMPLE: Record<string, unknown> = {
    mode: 'live',
    url: 'https://shop.kz/hook',
    failing_since: '2026-11-25T08:00:00.000Z',
    plan: 'starter',
    previous_plan: 'trial',
    limit: 200,
    used: 160,
    month: '2026-11',
    ends_at: '2026-11-30T19:30:00.000Z',
    expires_at: '2026-12-27T10:00:00.000Z',
    days: 30,
    ticket_id: 7,
    subject: 'Возврат',
    account: 'Касса 1',
  };

  it.each(NOTIFICATION_TYPES)('%s: a title and a body in each language, from the params it carries', (type) => {
    const words = NOTICE_WORDS[type];
    expect(words, `no words for ${type}`).toBeDefined();
    const variants = NOTIFICATION_VARIANTS[type] ?? [];
    for (const part of ['title', 'body']) {
      if (part === 'body' && STORED_BODY.includes(type)) continue;
      const keys = words[part] ? [part] : variants.map((v) => `${part}_${v}`);
      expect(keys.length, `${type}: no ${part}`).toBeGreaterThan(0);
      for (const k of keys) expectWords(words[k], `${type}.${k}`);
    }
    const params: readonly string[] = NOTIFICATION_PARAMS[type];
    for (const [key, w] of Object.entries(words)) {
      expect(key).toMatch(/^(title|body)(_[a-z]+)?$/);
      for (const l of LANGUAGES) {
        const used = [...w[l].matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
        expect(
          used.filter((p) => !params.includes(p)),
          `${type}.${key} ${l}: params the server does not send`,
        ).toEqual([]);
      }
    }
  });

  it('fills them in worded: a plan by name, dates and months in words, days counted', async () => {
    const notice = (type: string, extra: Record<string, unknown> = {}) => {
      const params = Object.fromEntries(
        NOTIFICATION_PARAMS[type as keyof typeof NOTIFICATION_PARAMS].map((p) => [p, SAMPLE[p] ?? null]),
      );
      return { type, title: 'stored title', body: 'stored body', params: { ...params, ...extra } };
    };
    const { t: ru, exists } = await i18nWith('ru');
    const { t: kk } = await i18nWith('kk');
    const limit = noticeText(notice('plan.limit_near'), ru, 'ru', exists);
    expect(limit).toEqual({
      title: 'Месячный лимит почти исчерпан',
      body: 'Боевых платежей за ноябрь 2026 г.: 160 из 200 по тарифу «Стартовый».',
    });
    const changed = noticeText(notice('plan.changed', { variant: 'replaced' }), ru, 'ru', exists);
    expect(changed.body).toBe('Тариф «Стартовый» с этого момента заменил тариф «Пробный», на 30 дней.');
    expect(changed.title).toBe('Тариф «Стартовый» действует до 27 декабря 2026 г.');
    expect(noticeText(notice('trial.ending'), kk, 'kk', exists).body).toContain('1 желтоқсан 2026 күні');
    const cert = noticeText(notice('provider.certificate_expiring', { variant: 'expired' }), kk, 'kk', exists);
    expect(cert.title).toBe('«Касса 1» провайдер аккаунтының сертификаты 27 желтоқсан 2026 күні бітті');
    // A support answer keeps its own text; a row from before params existed keeps both stored texts.
    expect(noticeText(notice('ticket.answered'), ru, 'ru', exists)).toEqual({
      title: 'Поддержка ответила: Возврат',
      body: 'stored body',
    });
    expect(noticeText({ ...notice('trial.ending'), params: null }, ru, 'ru', exists)).toEqual({
      title: 'stored title',
      body: 'stored body',
    });
    for (const type of NOTIFICATION_TYPES) {
      for (const variant of NOTIFICATION_VARIANTS[type] ?? [undefined]) {
        for (const [lang, t] of [
          ['ru', ru],
          ['kk', kk],
        ] as const) {
          const text = noticeText(notice(type, variant ? { variant } : {}), t, lang, exists);
          const all = `${text.title} ${text.body}`;
          expect(all, `${type} ${variant ?? ''} ${lang}`).not.toMatch(/\{\{|stored title|starter|\d{4}-\d\d/);
        }
      }
    }
  });
});

describe('the pages', () => {
  const root = fileURLToPath(new URL('../../packages/dashboard/src/pages', import.meta.url));
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tsx'));
  // Fields that hold an enum value, rendered as they came: `{x.plan}`, `cell: (x) => x.type`, `${x.status}`,
  // a list of event types joined as they are.
  const FIELD = '(plan|type|origin|role|status|state|event_type|step|kind|mode|category|source)';
  const RAW = new RegExp(
    [
      `(?<!=)\\{\\s*[\\w.?!]+\\.${FIELD}\\s*\\}`,
      `=>\\s*[\\w.?!]+\\.${FIELD}\\s*[},]`,
      `\\$\\{\\s*[\\w.?!]+\\.${FIELD}\\s*\\}`,
      '\\.events\\.join',
    ].join('|'),
  );
  // The request log's status is the HTTP status code, a number.
  const ALLOWED = ["cell: (l) => l.status, align: 'right'"];

  it('render no enum value as it came from the API', () => {
    const found: string[] = [];
    for (const f of files) {
      readFileSync(path.join(root, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (RAW.test(line) && !ALLOWED.some((a) => line.includes(a))) found.push(`${f}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
