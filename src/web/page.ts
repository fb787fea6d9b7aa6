// The hosted checkout page, server-rendered: the QR is inline SVG, so paying needs no JavaScript; the
// external script (no inline script: CSP) only polls, counts down and redirects. Every merchant text
// and URL is escaped with esc().
import { ASSET_VERSION, CHECK_ICON, documentStart, LOCK_ICON } from './assets.ts';
import { DEFAULT_BRAND, esc, formatTenge, minutesLeft, safeHref, successTarget } from './format.ts';
import { LANGS, TEXTS, type Lang, type Texts } from './i18n.ts';

export interface MerchantView {
  display_name: string;
  logo_url: string | null;
  brand_color: string | null;
  support_email: string | null;
}

export interface LinkView {
  token: string;
  amount: number;
  description: string;
  success_url: string | null;
  cancel_url: string | null;
  allow_repeat: boolean;
  test: boolean;
}

export type PageState =
  | { kind: 'qr'; operationId: string; svg: string; deepLink: string; expiresAt: Date }
  | { kind: 'email'; error?: boolean; value?: string }
  /** checkUrl: the fiscal receipt's check page once issued (the script shows it when it comes later) */
  | { kind: 'paid'; operationId: string; checkUrl?: string | null }
  /** link previews (messenger bots, HEAD): the summary without issuing a QR */
  | { kind: 'preview' }
  | { kind: 'message'; title: keyof Texts; text: keyof Texts };

export interface PageView {
  lang: Lang;
  /** the link token of the address, for the language links (known even when the link is not) */
  token?: string;
  now: Date;
  merchant?: MerchantView;
  link?: LinkView;
  state: PageState;
}

const hidden = (on: boolean) => (on ? ' hidden' : '');

function form(
  action: string,
  lang: Lang,
  fields: Record<string, string>,
  button: string,
  cls: string,
  extra = '',
): string {
  const inputs = Object.entries({ ...fields, lang })
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  const submit = `<button type="submit" class="button ${cls}">${esc(button)}</button>`;
  return `<form method="post" action="${esc(action)}" class="inline-form"${extra}>${inputs}${submit}</form>`;
}

/** The header without a merchant (an unknown link): the Tolem sign and name. */
const TOLEM_HEADER =
  '<header class="merchant"><span class="logo logo-initial" aria-hidden="true">₸</span>' +
  '<div class="merchant-text"><div class="merchant-name">Tolem</div></div></header>';

function merchantHeader(m: MerchantView, t: Texts): string {
  const initial = [...m.display_name.trim()][0]?.toUpperCase() ?? '₸';
  const logo = safeHref(m.logo_url)
    ? `<img class="logo" src="${esc(m.logo_url)}" alt="" width="44" height="44" referrerpolicy="no-referrer">`
    : `<span class="logo logo-initial" aria-hidden="true">${esc(initial)}</span>`;
  const name = `<div class="merchant-name" id="merchant-name">${esc(m.display_name)}</div>`;
  const sub = `<div class="merchant-sub">${LOCK_ICON}${esc(t.secure)}</div>`;
  return `<header class="merchant">${logo}<div class="merchant-text">${name}${sub}</div></header>`;
}

/** The icon, title and text of a state that went wrong (expired, failed). */
const warnHead = (title: string, text: string) =>
  `<div class="state-icon warn" aria-hidden="true">!</div><h2>${esc(title)}</h2><p class="muted">${esc(text)}</p>`;

function qrPanels(v: PageView, link: LinkView, s: Extract<PageState, { kind: 'qr' }>, t: Texts): string {
  const path = `/checkout/${link.token}`;
  const deep = safeHref(s.deepLink);
  const simulate = link.test
    ? '<div class="test-tools">' +
      form(`${path}/simulate`, v.lang, { operation_id: s.operationId }, t.simulate, 'test', ' data-js="simulate"') +
      `<p class="small muted">${esc(t.simulateHint)}</p></div>`
    : '';
  const countdown = `<span id="countdown">${minutesLeft(s.expiresAt, v.now)} ${esc(t.minutes)}</span>`;
  const afterPaying = `<a href="${esc(`${path}?lang=${v.lang}&op=${s.operationId}`)}">${esc(t.afterPaying)}</a>`;
  return `<section class="panel" id="panel-qr">
  <div class="qr-box">${s.svg}</div>
  <p class="hint">${esc(t.scan)}</p>
  ${deep ? `<a class="button primary app-link" href="${esc(deep)}">${esc(t.openApp)}</a>` : ''}
  <p class="status" role="status"><span class="pulse" aria-hidden="true"></span>${esc(t.waiting)}</p>
  <p class="small muted">${esc(t.validFor)} ${countdown}</p>
  <noscript><p class="small">${afterPaying}</p></noscript>
  ${simulate}
</section>
${paidPanel(v, link, s.operationId, t, true)}
<section class="panel state" id="panel-expired" hidden>
  ${warnHead(t.expired, t.expiredText)}
  ${form(`${path}/refresh`, v.lang, {}, t.newQr, 'primary', ' data-js="refresh"')}
</section>
<section class="panel state" id="panel-failed" hidden>
  ${warnHead(t.failed, t.failedText)}
  ${form(`${path}/refresh`, v.lang, {}, t.newQr, 'primary')}
</section>`;
}

/**
 * "Check the receipt": the fiscal receipt's check page, hidden until the receipt is issued (the script
 * fills the address in when the status brings it). A new tab: the payer keeps the payment's page.
 */
export function receiptLink(t: Texts, checkUrl: string | null | undefined): string {
  const href = safeHref(checkUrl);
  return (
    `<a class="receipt-link" id="receipt-link" target="_blank" rel="noopener noreferrer"` +
    `${href ? ` href="${esc(href)}"` : ' hidden'}>${esc(t.receiptLink)}</a>`
  );
}

function paidPanel(
  v: PageView,
  link: LinkView,
  operationId: string,
  t: Texts,
  hide: boolean,
  checkUrl?: string | null,
): string {
  const back = successTarget(link.success_url, operationId);
  const backToShop = back
    ? `<p class="small muted redirect-note" hidden>${esc(t.redirecting)}</p>` +
      `<a class="button primary" id="back-to-shop" href="${esc(back)}">${esc(t.backToShop)}</a>`
    : '';
  return `<section class="panel state" id="panel-paid"${hidden(hide)}>
  <div class="state-icon ok" aria-hidden="true">${CHECK_ICON}</div>
  <h2 id="paid-title">${esc(t.paid)}</h2><p class="muted">${esc(t.paidText)}</p>
  ${receiptLink(t, checkUrl)}
  ${backToShop}
  ${link.allow_repeat ? form(`/checkout/${link.token}/refresh`, v.lang, {}, t.payAgain, 'secondary') : ''}
</section>`;
}

function emailPanel(v: PageView, link: LinkView, s: Extract<PageState, { kind: 'email' }>, t: Texts): string {
  const invalid = s.error ? ' aria-invalid="true" aria-describedby="email-error"' : '';
  return `<section class="panel" id="panel-email">
  <h2>${esc(t.emailTitle)}</h2><p class="muted">${esc(t.emailText)}</p>
  <form method="post" action="${esc(`/checkout/${link.token}/email`)}" class="email-form" novalidate>
    <input type="hidden" name="lang" value="${v.lang}">
    <label for="email">${esc(t.emailLabel)}</label>
    <input id="email" name="email" type="email" inputmode="email" autocomplete="email" required maxlength="254"
      placeholder="${esc(t.emailPlaceholder)}" value="${esc(s.value ?? '')}"${invalid}>
    ${s.error ? `<p class="field-error" id="email-error" role="alert">${esc(t.badEmail)}</p>` : ''}
    <button type="submit" class="button primary">${esc(t.continue)}</button>
  </form>
</section>`;
}

function body(v: PageView, t: Texts): string {
  const { link, state } = v;
  if (state.kind === 'message' || !link) {
    const s = state.kind === 'message' ? state : { title: 'errorTitle' as const, text: 'errorText' as const };
    return (
      '<section class="panel state"><div class="state-icon muted-icon" aria-hidden="true">i</div>' +
      `<h2>${esc(t[s.title])}</h2><p class="muted">${esc(t[s.text])}</p></section>`
    );
  }
  const summary =
    '<section class="summary">' +
    `<div class="amount-label">${esc(t.amountDue)}</div>` +
    `<div class="amount" id="amount">${esc(formatTenge(link.amount))}</div>` +
    `<p class="description" id="description">${esc(link.description)}</p>` +
    '</section>';
  if (state.kind === 'preview') return summary;
  if (state.kind === 'email') return summary + emailPanel(v, link, state, t);
  if (state.kind === 'paid') return summary + paidPanel(v, link, state.operationId, t, false, state.checkUrl);
  return summary + qrPanels(v, link, state, t);
}

function footer(v: PageView, t: Texts): string {
  const m = v.merchant;
  const cancel = v.link && v.state.kind !== 'paid' ? safeHref(v.link.cancel_url) : null;
  const base = v.token ? `/checkout/${v.token}` : '';
  const langs = LANGS.map((l) => {
    const current = l === v.lang ? ' aria-current="true"' : '';
    return `<a href="${esc(base)}?lang=${l}" lang="${l}"${current}>${l.toUpperCase()}</a>`;
  }).join('');
  const email = m?.support_email;
  const support = email
    ? `<p class="small muted">${esc(t.support)}: <a href="mailto:${esc(email)}">${esc(email)}</a></p>`
    : '';
  return `<footer class="foot">
  ${cancel ? `<a class="cancel-link" id="cancel-link" href="${esc(cancel)}">${esc(t.cancel)}</a>` : ''}
  ${support}
  <nav class="langs" aria-label="${esc(t.language)}">${langs}</nav>
</footer>`;
}

export function renderPage(v: PageView): string {
  const t = TEXTS[v.lang];
  const link = v.link;
  const brand = v.merchant?.brand_color ?? DEFAULT_BRAND;
  const st = v.state;
  // What the script needs, as data attributes (escaped like everything else).
  const data: Record<string, string> = { state: st.kind };
  if (link) data.token = link.token;
  if (st.kind === 'qr' || st.kind === 'paid') {
    data.op = st.operationId;
    const target = link ? successTarget(link.success_url, st.operationId) : null;
    if (target) data.redirect = target;
  }
  if (st.kind === 'qr') {
    data.expiresAt = st.expiresAt.toISOString();
  }
  const attrs = Object.entries(data)
    .map(([k, val]) => ` data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${esc(val)}"`)
    .join('');
  const title = v.merchant ? `${t.title} · ${v.merchant.display_name}` : `${t.title} · Tolem`;
  const preview = link
    ? `<meta property="og:title" content="${esc(title)}">\n` +
      `<meta property="og:description" content="${esc(`${formatTenge(link.amount)} · ${link.description}`)}">`
    : '';
  return `${documentStart(v.lang)}
<title>${esc(title)}</title>
${preview}
<link rel="stylesheet" href="/checkout/assets/checkout.css?v=${ASSET_VERSION}">
<link rel="stylesheet" href="/checkout/assets/theme.css?c=${esc(brand.slice(1))}">
<script src="/checkout/assets/checkout.js?v=${ASSET_VERSION}" defer></script>
</head>
<body>
${link?.test ? `<div class="test-banner" role="note" id="test-banner">${esc(t.testBanner)}</div>` : ''}
<main class="card" id="checkout"${attrs}>
${v.merchant ? merchantHeader(v.merchant, t) : TOLEM_HEADER}
${body(v, t)}
${footer(v, t)}
</main>
</body>
</html>
`;
}
