// The payer page's own static files (its script and the few styles beyond the checkout's stylesheet), read
// once at start like the checkout's; their content hash versions the URLs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const read = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

export const PAYER_JS = read('payer.js');
export const PAYER_CSS = read('payer.css');
export const PAYER_ASSET_VERSION = createHash('sha256').update(PAYER_JS).update(PAYER_CSS).digest('hex').slice(0, 12);
