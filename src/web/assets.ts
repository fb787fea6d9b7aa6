// The checkout page's static files, read once at start. Their content hash versions the URLs, so
// browsers may cache them for long and still get a new file after a deploy.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEFAULT_BRAND, inkFor } from './format.ts';

const read = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

export const CHECKOUT_JS = read('checkout.js');
export const CHECKOUT_CSS = read('checkout.css');
export const ASSET_VERSION = createHash('sha256').update(CHECKOUT_JS).update(CHECKOUT_CSS).digest('hex').slice(0, 12);

/**
 * The merchant's colour as CSS custom properties. A stylesheet of our own origin instead of an inline
 * style attribute, because the page's CSP allows no inline styles. Anything but 6 hex digits falls back.
 */
export function themeCss(hex: unknown): string {
  const colour = typeof hex === 'string' && /^[0-9A-Fa-f]{6}$/.test(hex) ? `#${hex.toUpperCase()}` : DEFAULT_BRAND;
  return `:root{--brand:${colour};--brand-ink:${inkFor(colour)}}\n`;
}

/**
 * The start of every public page's document: not indexed, no referrer to other origins (the address is
 * a bearer of the link or payment), no favicon request.
 */
export const documentStart = (lang: string): string => `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="same-origin">
<link rel="icon" href="data:,">`;

/** The padlock before "secure payment" under the merchant's name, on the checkout and payer pages. */
export const LOCK_ICON =
  '<svg class="lock" viewBox="0 0 16 16" aria-hidden="true">' +
  '<path d="M4 7V5a4 4 0 1 1 8 0v2h1v8H3V7h1zm2 0h4V5a2 2 0 1 0-4 0v2z"/></svg>';

/** The tick of a paid (or completed) state. */
export const CHECK_ICON = '<svg viewBox="0 0 24 24"><path d="M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6 11-11-1.4-1.4z"/></svg>';
