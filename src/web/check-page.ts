// The receipt check page (/fiscal/check): a test receipt drawn the way a Kazakh fiscal receipt is printed
// (seller, ЗНМ and РНМ, shift and number, lines with VAT, payment type, total, fiscal sign, the operator),
// with a clear TEST mark: the sandbox register's receipts have no legal force. Server-rendered with no
// script; the checkout's and payer page's stylesheets (CSP: nothing inline). Every text from a merchant
// goes through esc().
import { ASSET_VERSION, documentStart } from './assets.ts';
import { CHECK_TEXTS, type CheckTexts } from './check-texts.ts';
import { DEFAULT_BRAND, esc } from './format.ts';
import { fill, LANGS, type Lang } from './i18n.ts';
import { PAYER_ASSET_VERSION } from './payer-assets.ts';

export interface CheckLineView {
  name: string;
  quantity: number;
  price: number;
  total: number;
  vatTiyn: number | null;
  vatRateBps: number | null;
}

export interface CheckReceiptView {
  kind: 'sale' | 'return';
  merchantName: string;
  seller: { legalName: string | null; orgType: string | null; bin: string | null; address: string | null };
  uniqueNumber: string | null;
  registrationNumber: string;
  shiftNumber: number;
  numberInShift: number;
  issuedAt: Date;
  paymentType: 'mobile' | 'card';
  lines: CheckLineView[];
  total: number;
  vatTiyn: number | null;
  fiscalSign: string;
  ofdName: string | null;
  /** the QR of this page's own address, as inline SVG */
  qrSvg: string;
}

export interface CheckPageView {
  lang: Lang;
  /** this page's query without `lang` (already URL-encoded), kept by the language links */
  query: string;
  receipt: CheckReceiptView | null;
}

const ALMATY_MS = 5 * 3600_000;
const ORG_FORMS: Record<string, string> = { ip: 'ИП', too: 'ТОО', ao: 'АО' };

const groups = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
/** Money as a receipt prints it: 2 500,00 ₸ (tenge) */
const tenge = (n: number) => `${groups(n)},00 ₸`;
/** VAT is in tiyn: 26 786 tiyn -> 267,86 ₸ */
const tiyn = (n: number) => `${groups(Math.trunc(n / 100))},${String(n % 100).padStart(2, '0')} ₸`;
const rate = (bps: number) => String(bps / 100).replace('.', ',');

/** dd.MM.yyyy HH:mm:ss in Kazakhstan's time (UTC+5), as receipts print it. */
function localTime(at: Date): string {
  const d = new Date(at.getTime() + ALMATY_MS).toISOString();
  return `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)} ${d.slice(11, 19)}`;
}

function head(lang: Lang, title: string): string {
  return `${documentStart(lang)}
<title>${esc(title)}</title>
<link rel="stylesheet" href="/checkout/assets/checkout.css?v=${ASSET_VERSION}">
<link rel="stylesheet" href="/pay/assets/payer.css?v=${PAYER_ASSET_VERSION}">
<link rel="stylesheet" href="/checkout/assets/theme.css?c=${DEFAULT_BRAND.slice(1)}">
</head>`;
}

function langLinks(v: CheckPageView, t: CheckTexts): string {
  const base = `/fiscal/check?${v.query ? `${v.query}&` : ''}lang=`;
  const links = LANGS.map(
    (l) => `<a href="${esc(base + l)}" lang="${l}"${l === v.lang ? ' aria-current="true"' : ''}>${l.toUpperCase()}</a>`,
  ).join('');
  return `<footer class="foot"><nav class="langs" aria-label="${esc(t.language)}">${links}</nav></footer>`;
}

const row = (label: string, value: string, id?: string) =>
  `<div class="rc-row"><dt>${esc(label)}</dt><dd${id ? ` id="${id}"` : ''}>${esc(value)}</dd></div>`;

function sellerBlock(r: CheckReceiptView, t: CheckTexts): string {
  const s = r.seller;
  const form = s.orgType ? ORG_FORMS[s.orgType] : undefined;
  const legal = s.legalName ? (form && !s.legalName.startsWith(form) ? `${form} ${s.legalName}` : s.legalName) : null;
  return (
    `<dl class="rc-list" id="seller">` +
    row(t.seller, legal ?? r.merchantName, 'seller-name') +
    (s.bin ? row(t.bin, s.bin, 'seller-bin') : '') +
    (s.address ? row(t.address, s.address) : '') +
    '</dl>'
  );
}

/** A line as a receipt prints it: its name, then quantity × price, its VAT, and the line's sum at the right. */
function linesTable(r: CheckReceiptView, t: CheckTexts): string {
  const body = r.lines
    .map((l, i) => {
      const vat =
        l.vatTiyn !== null && l.vatRateBps
          ? `<span class="rc-vat">${esc(fill(t.lineVat, { rate: rate(l.vatRateBps) }))}: ${esc(tiyn(l.vatTiyn))}</span>`
          : '';
      return (
        `<tr id="line-${i + 1}"><th scope="row">${i + 1}. ${esc(l.name)}` +
        `<span class="rc-qty">${l.quantity} × ${esc(tenge(l.price))}</span>${vat}</th>` +
        `<td>${esc(tenge(l.total))}</td></tr>`
      );
    })
    .join('');
  return (
    `<table class="rc-lines"><caption class="visually-hidden">${esc(t.lines)}</caption>` +
    `<thead><tr><th scope="col">${esc(t.name)}</th><th scope="col">${esc(t.sum)}</th></tr></thead>` +
    `<tbody>${body}</tbody></table>`
  );
}

function receiptBody(r: CheckReceiptView, t: CheckTexts): string {
  const register =
    '<dl class="rc-list" id="register">' +
    (r.uniqueNumber ? row(t.uniqueNumber, r.uniqueNumber, 'unique-number') : '') +
    row(t.registrationNumber, r.registrationNumber, 'registration-number') +
    row(t.shift, String(r.shiftNumber), 'shift') +
    row(t.receiptNumber, String(r.numberInShift), 'number-in-shift') +
    row(t.issuedAt, localTime(r.issuedAt), 'issued-at') +
    '</dl>';
  const totals =
    '<dl class="rc-list rc-totals">' +
    row(t.paymentType, r.paymentType === 'card' ? t.card : t.mobile, 'payment-type') +
    `<div class="rc-row rc-total"><dt>${esc(t.total)}</dt><dd id="total">${esc(tenge(r.total))}</dd></div>` +
    (r.vatTiyn !== null ? row(t.vat, tiyn(r.vatTiyn), 'vat') : row(t.noVat, '—', 'vat')) +
    '</dl>';
  const fiscal =
    '<dl class="rc-list">' +
    row(t.fiscalSign, r.fiscalSign, 'fiscal-sign') +
    (r.ofdName ? row(t.ofd, r.ofdName, 'ofd') : '') +
    '</dl>';
  const qr = r.qrSvg.replace('aria-label="QR"', `aria-label="${esc(t.qr)}"`);
  return `<header class="rc-head">
<p class="rc-title" lang="ru">ФИСКАЛЬНЫЙ ЧЕК</p><p class="rc-title" lang="kk">ФИСКАЛДЫҚ ЧЕК</p>
<h1 class="rc-kind" id="kind">${esc(t.heading)} · ${esc(r.kind === 'return' ? t.return : t.sale)}</h1>
</header>
${sellerBlock(r, t)}
${register}
${linesTable(r, t)}
${totals}
${fiscal}
<figure class="rc-qr">${qr}</figure>`;
}

const testMark = (t: CheckTexts) =>
  `<div class="test-banner rc-test" role="note" id="test-mark"><strong>${esc(t.testMark)}</strong> · ` +
  `${esc(t.testText)}</div>`;

export function renderCheckPage(v: CheckPageView): string {
  const t = CHECK_TEXTS[v.lang];
  if (!v.receipt) {
    return `${head(v.lang, `${t.notFoundTitle} · Tolem`)}
<body>
<main class="card payer receipt" id="check" data-state="not-found">
<section class="panel state"><div class="state-icon muted-icon" aria-hidden="true">i</div>
<h1 class="message-title">${esc(t.notFoundTitle)}</h1><p class="muted">${esc(t.notFoundText)}</p></section>
${langLinks(v, t)}
</main>
</body>
</html>
`;
  }
  return `${head(v.lang, `${t.title} · ${v.receipt.merchantName}`)}
<body>
${testMark(t)}
<main class="card payer receipt" id="check" data-state="found">
${receiptBody(v.receipt, t)}
${langLinks(v, t)}
</main>
</body>
</html>
`;
}
