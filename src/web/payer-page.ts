// The payer page of one operation (/pay/{op_id}, the `deep_link` of live operations, decisions 26) and
// the return-QR page of an r2 refund (/pay/{op_id}/refunds/{refund_id}). Server-rendered like the
// checkout: the QR is inline SVG and every state is in the HTML, so the page works without JavaScript;
// the external script (CSP: no inline script or style) only polls the status and shows the panel it
// names. Every merchant text goes through esc(). The words never name the provider ("the payment app").
import { ASSET_VERSION, CHECK_ICON, documentStart, LOCK_ICON } from './assets.ts';
import { PAYER_ASSET_VERSION } from './payer-assets.ts';
import { DEFAULT_BRAND, esc, formatTenge, minutesLeft, safeHref } from './format.ts';
import { fill, LANGS, PAY_TEXTS, TEXTS, type Lang, type PayTexts, type Texts } from './i18n.ts';
import { receiptLink, type MerchantView } from './page.ts';

export interface PaymentSubject {
  kind: 'payment';
  opId: string;
  test: boolean;
  amount: number;
  comment: string | null;
  /** the operation's status (created, paid, expired, declined, cancelled, partially_refunded, refunded) */
  status: string;
  qrToken: string;
  /** the QR image, while the payment waits (null otherwise: a settled QR is not shown) */
  svg: string | null;
  expiresAt: Date;
  /** the fiscal receipt's check page once issued (the script shows it when the status brings it later) */
  checkUrl: string | null;
}

export interface RefundSubject {
  kind: 'refund';
  opId: string;
  refundId: string;
  test: boolean;
  amount: number;
  paymentAmount: number;
  /** pending (waiting for the payer's scan), completed, failed */
  status: string;
  qrToken: string;
  svg: string | null;
  expiresAt: Date | null;
}

export interface PayerPageView {
  lang: Lang;
  now: Date;
  merchant: MerchantView;
  subject: PaymentSubject | RefundSubject;
}

interface Panel {
  name: string;
  /** what the status line (a live region) says in this state */
  say: string;
  title: string;
  text: string;
  tone: 'ok' | 'warn' | 'muted';
}

function paymentPanels(p: PayTexts): Panel[] {
  return [
    { name: 'paid', say: p.paid, title: p.paidTitle, text: p.paidText, tone: 'ok' },
    {
      name: 'partially_refunded',
      say: p.partiallyRefunded,
      title: p.paidTitle,
      text: p.partiallyRefundedText,
      tone: 'ok',
    },
    { name: 'refunded', say: p.refunded, title: p.refunded, text: p.refundedText, tone: 'muted' },
    { name: 'expired', say: p.expired, title: p.expired, text: p.expiredText, tone: 'warn' },
    { name: 'declined', say: p.declined, title: p.declined, text: p.declinedText, tone: 'warn' },
    { name: 'cancelled', say: p.cancelled, title: p.cancelled, text: p.cancelledText, tone: 'warn' },
  ];
}

function refundPanels(p: PayTexts): Panel[] {
  return [
    { name: 'completed', say: p.refundCompleted, title: p.refundCompleted, text: p.refundCompletedText, tone: 'ok' },
    { name: 'failed', say: p.refundFailed, title: p.refundFailed, text: p.refundFailedText, tone: 'warn' },
  ];
}

/** The panel a status shows: the waiting one while the QR can be scanned, else the status's own. */
function panelOf(kind: 'payment' | 'refund', status: string): string {
  if (kind === 'payment') return status === 'created' ? 'waiting' : status;
  return status === 'pending' ? 'waiting' : status;
}

/**
 * The provider's app is opened only through the QR token itself, when it is a web link: one Tolem
 * operation is never two provider payments, so nothing else is ever linked (a digit token is not a link).
 */
function appLinkOf(qrToken: string): string | null {
  if (!/^https?:\/\//i.test(qrToken)) return null;
  try {
    const u = new URL(qrToken);
    return u.protocol === 'http:' || u.protocol === 'https:' ? safeHref(qrToken) : null;
  } catch {
    return null;
  }
}

const hidden = (on: boolean) => (on ? ' hidden' : '');

/** The header of a message page (no merchant known): the Tolem sign and name. */
const TOLEM_HEADER =
  '<header class="merchant"><span class="logo logo-initial" aria-hidden="true">₸</span>' +
  '<div class="merchant-text"><p class="merchant-name">Tolem</p></div></header>';

function merchantHeader(m: MerchantView, t: Texts): string {
  const initial = [...m.display_name.trim()][0]?.toUpperCase() ?? '₸';
  const logo = safeHref(m.logo_url)
    ? `<img class="logo" src="${esc(m.logo_url)}" alt="" width="44" height="44" referrerpolicy="no-referrer">`
    : `<span class="logo logo-initial" aria-hidden="true">${esc(initial)}</span>`;
  const name = `<p class="merchant-name" id="merchant-name">${esc(m.display_name)}</p>`;
  const sub = `<p class="merchant-sub">${LOCK_ICON}${esc(t.secure)}</p>`;
  return `<header class="merchant">${logo}<div class="merchant-text">${name}${sub}</div></header>`;
}

function statePanel(panel: Panel, shown: boolean): string {
  const icon = panel.tone === 'ok' ? CHECK_ICON : panel.tone === 'warn' ? '!' : 'i';
  const cls = panel.tone === 'muted' ? 'muted-icon' : panel.tone;
  const attrs = `id="panel-${panel.name}" data-say="${esc(panel.say)}" aria-labelledby="title-${panel.name}"`;
  return `<section class="panel state big-state" ${attrs}${hidden(!shown)}>
  <div class="state-icon ${cls}" aria-hidden="true">${icon}</div>
  <h2 id="title-${panel.name}">${esc(panel.title)}</h2>
  <p class="muted">${esc(panel.text)}</p>
</section>`;
}

/** The QR as an image with a name of its own (the generated SVG is labelled just "QR"). */
const labelled = (svg: string, label: string) => svg.replace('aria-label="QR"', `aria-label="${esc(label)}"`);

function waitingPanel(
  v: PayerPageView,
  p: PayTexts,
  s: PaymentSubject | RefundSubject,
  say: string,
  path: string,
): string {
  if (!s.svg) return '';
  const amount = formatTenge(s.amount);
  const label = s.kind === 'payment' ? fill(p.qrLabel, { amount }) : fill(p.refundQrLabel, { amount });
  const app = appLinkOf(s.qrToken);
  const expiry = s.expiresAt
    ? `<p class="small muted expiry">${esc(s.kind === 'payment' ? p.validFor : p.refundValidFor)} ` +
      `<time id="countdown" datetime="${s.expiresAt.toISOString()}">` +
      `${minutesLeft(s.expiresAt, v.now)} ${esc(TEXTS[v.lang].minutes)}</time></p>`
    : '';
  return `<section class="panel" id="panel-waiting" data-say="${esc(say)}" aria-labelledby="scan-hint">
  <div class="qr-box">${labelled(s.svg, label)}</div>
  <h2 class="hint" id="scan-hint">${esc(s.kind === 'payment' ? p.scan : p.refundScan)}</h2>
  ${app ? `<a class="button primary app-link" id="app-link" href="${esc(app)}">${esc(p.openApp)}</a>` : ''}
  ${expiry}
  <p class="small" id="refresh"><a href="${esc(`${path}?lang=${v.lang}`)}">${esc(p.refresh)}</a></p>
</section>`;
}

function summary(t: Texts, p: PayTexts, s: PaymentSubject | RefundSubject): string {
  const heading = (label: string) =>
    '<section class="summary" aria-labelledby="pay-heading"><h1 class="pay-heading" id="pay-heading">' +
    `<span class="amount-label">${esc(label)}</span> ` +
    `<span class="amount" id="amount">${esc(formatTenge(s.amount))}</span></h1>`;
  if (s.kind === 'payment') {
    return (
      heading(t.amountDue) + `${s.comment ? `<p class="description" id="comment">${esc(s.comment)}</p>` : ''}</section>`
    );
  }
  const refundOf = fill(p.refundOf, { refund: formatTenge(s.amount), payment: formatTenge(s.paymentAmount) });
  return heading(p.refundAmount) + `<p class="description" id="refund-of">${esc(refundOf)}</p></section>`;
}

function footer(v: PayerPageView, t: Texts, path: string): string {
  const m = v.merchant;
  const langs = LANGS.map((l) => {
    const current = l === v.lang ? ' aria-current="true"' : '';
    return `<a href="${esc(path)}?lang=${l}" lang="${l}"${current}>${l.toUpperCase()}</a>`;
  }).join('');
  const email = m.support_email;
  const support = email
    ? `<p class="small muted">${esc(t.support)}: <a href="mailto:${esc(email)}">${esc(email)}</a></p>`
    : '';
  return `<footer class="foot">
  ${support}
  <nav class="langs" aria-label="${esc(t.language)}">${langs}</nav>
</footer>`;
}

function head(lang: Lang, title: string, brand: string): string {
  return `${documentStart(lang)}
<title>${esc(title)}</title>
<link rel="stylesheet" href="/checkout/assets/checkout.css?v=${ASSET_VERSION}">
<link rel="stylesheet" href="/pay/assets/payer.css?v=${PAYER_ASSET_VERSION}">
<link rel="stylesheet" href="/checkout/assets/theme.css?c=${esc(brand.slice(1))}">`;
}

export function renderPayerPage(v: PayerPageView): string {
  const t = TEXTS[v.lang];
  const p = PAY_TEXTS[v.lang];
  const s = v.subject;
  const path =
    s.kind === 'payment'
      ? `/pay/${encodeURIComponent(s.opId)}`
      : `/pay/${encodeURIComponent(s.opId)}/refunds/${encodeURIComponent(s.refundId)}`;
  const current = panelOf(s.kind, s.status);
  const waitingSay = s.kind === 'payment' ? p.waiting : p.refundWaiting;
  const panels = s.kind === 'payment' ? paymentPanels(p) : refundPanels(p);
  // A status no panel knows (a state added later) still reads as something: its waiting line or a plain word.
  const say = current === 'waiting' ? waitingSay : (panels.find((x) => x.name === current)?.say ?? s.status);
  const data: Record<string, string> = { kind: s.kind, state: current, poll: `${path}/status` };
  if (s.expiresAt) data['expires-at'] = s.expiresAt.toISOString();
  const attrs = Object.entries(data)
    .map(([k, val]) => ` data-${k}="${esc(val)}"`)
    .join('');
  const title = `${s.kind === 'payment' ? p.title : p.refundTitle} · ${v.merchant.display_name}`;
  const tone = current === 'waiting' ? 'waiting' : 'done';
  return (
    `${head(v.lang, title, v.merchant.brand_color ?? DEFAULT_BRAND)}
<script src="/pay/assets/payer.js?v=${PAYER_ASSET_VERSION}" defer></script>
</head>
<body>
${s.test ? `<div class="test-banner" role="note" id="test-banner">${esc(t.testBanner)}</div>` : ''}
<main class="card payer" id="payer"${attrs}>
${merchantHeader(v.merchant, t)}
${summary(t, p, s)}
<p class="status payer-status" id="status" role="status" aria-atomic="true" data-tone="${tone}">` +
    `<span class="pulse" id="pulse" aria-hidden="true"${hidden(current !== 'waiting')}></span>` +
    `<span class="visually-hidden">${esc(p.statusLabel)}: </span><span id="status-text">${esc(say)}</span></p>
${current === 'waiting' ? waitingPanel(v, p, s, waitingSay, path) : ''}
${panels.map((x) => statePanel(x, x.name === current)).join('\n')}
${s.kind === 'payment' ? receiptLink(t, s.checkUrl) : ''}
${footer(v, t, path)}
</main>
</body>
</html>
`
  );
}

/** The message page of an error (unknown payment or refund, too many requests), in the page's look. */
export function renderPayerMessage(v: { lang: Lang; title: string; text: string }): string {
  const t = TEXTS[v.lang];
  // The language links keep the address the visitor is on: ?lang= only.
  const langs = LANGS.map(
    (l) => `<a href="?lang=${l}" lang="${l}"${l === v.lang ? ' aria-current="true"' : ''}>${l.toUpperCase()}</a>`,
  ).join('');
  const message =
    '<section class="panel state"><div class="state-icon muted-icon" aria-hidden="true">i</div>' +
    `<h1 class="message-title">${esc(v.title)}</h1><p class="muted">${esc(v.text)}</p></section>`;
  return `${head(v.lang, `${v.title} · Tolem`, DEFAULT_BRAND)}
</head>
<body>
<main class="card payer" id="payer" data-state="message">
${TOLEM_HEADER}
${message}
<footer class="foot"><nav class="langs" aria-label="${esc(t.language)}">${langs}</nav></footer>
</main>
</body>
</html>
`;
}

/** The title and text of an error's message page. */
export function payerMessageTexts(
  lang: Lang,
  what: 'payment' | 'refund',
  code: string,
): { title: string; text: string } {
  const t = TEXTS[lang];
  const p = PAY_TEXTS[lang];
  if (code === 'payment_not_found') return { title: p.notFoundTitle, text: p.notFoundText };
  if (code === 'not_found')
    return what === 'refund'
      ? { title: p.refundNotFoundTitle, text: p.refundNotFoundText }
      : { title: p.notFoundTitle, text: p.notFoundText };
  if (code === 'rate_limit_exceeded') return { title: t.tooManyTitle, text: t.tooManyText };
  return { title: t.errorTitle, text: t.errorText };
}
