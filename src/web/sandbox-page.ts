// The sandbox payer's page: what a phone that scanned a test QR lands on, standing in for the provider's
// app. It shows who is paid and how much, and lets a person pay, decline or let the payment expire, with
// plain form posts (no script). The checkout's stylesheet, no inline style or script (its CSP).
import { ASSET_VERSION, documentStart } from './assets.ts';
import { DEFAULT_BRAND, esc, formatTenge } from './format.ts';

export interface SandboxPaymentView {
  ref: string;
  merchant: string;
  amount: number;
  comment: string | null;
  type: 'qr' | 'invoice';
  status: string;
  /** set after an action: what happened, for the person who did it */
  notice?: string;
}

const STATUS_TEXT: Record<string, string> = {
  created: 'Waiting for the payer',
  paid: 'Paid',
  expired: 'Expired',
  declined: 'Declined by the payer',
  cancelled: 'Cancelled',
  partially_refunded: 'Paid, partly refunded',
  refunded: 'Paid, refunded',
};

const action = (ref: string, name: string, label: string, cls: string) =>
  `<form method="post" action="/sandbox/qr/${esc(encodeURIComponent(ref))}/${name}">` +
  `<button class="button ${cls}" type="submit" data-action="${name}">${esc(label)}</button></form>`;

const BANNER =
  '<div class="test-banner" role="note">' +
  "Test mode: the sandbox stands in for the provider's app. No money moves.</div>";

export function renderSandboxPage(v: SandboxPaymentView): string {
  const waiting = v.status === 'created';
  const header =
    '<header class="merchant"><span class="logo logo-initial" aria-hidden="true">₸</span><div class="merchant-text">' +
    `<div class="merchant-name" id="merchant-name">${esc(v.merchant)}</div>` +
    `<div class="merchant-sub">${v.type === 'qr' ? 'QR payment' : 'Invoice'}</div></div></header>`;
  const actions = waiting
    ? '<div class="actions">' +
      action(v.ref, 'pay', `Pay ${formatTenge(v.amount)}`, 'primary') +
      action(v.ref, 'decline', 'Decline', 'secondary') +
      action(v.ref, 'expire', 'Let it expire', 'secondary') +
      '</div>'
    : '';
  return `${documentStart('en')}
<title>Sandbox payment · ${esc(v.merchant)}</title>
<link rel="stylesheet" href="/checkout/assets/checkout.css?v=${ASSET_VERSION}">
<link rel="stylesheet" href="/checkout/assets/theme.css?c=${DEFAULT_BRAND.slice(1)}">
</head>
<body>
${BANNER}
<main class="card" id="sandbox-payment" data-status="${esc(v.status)}">
${header}
<p class="amount" id="amount">${esc(formatTenge(v.amount))}</p>
${v.comment ? `<p class="description" id="comment">${esc(v.comment)}</p>` : ''}
${v.notice ? `<p class="notice" id="notice" role="status">${esc(v.notice)}</p>` : ''}
<p class="status" id="status">${esc(STATUS_TEXT[v.status] ?? v.status)}</p>
${actions}
</main>
</body>
</html>
`;
}
