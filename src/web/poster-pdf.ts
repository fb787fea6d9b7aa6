// The printable poster of a payment link (decisions 28): one page of A4, A5 or A6 with the merchant's branding
// (a band in its colour, its logo when one could be had, its name), the call to scan in Russian and Kazakh (and
// English, small), the QR, the amount in tenge, the description and the address the QR encodes, for a payer
// who cannot scan. Made with pdfkit and DejaVu Sans (Cyrillic, Kazakh letters, ₸) from a view model only.
// Everything is laid out on an A4 grid and multiplied by the page's width over A4's, so the three sizes are
// the same poster scaled. The QR is drawn as vector squares, sharp at any size and on any printer.
import { createRequire } from 'node:module';
import QRCode from 'qrcode';

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/** Page sizes in PostScript points (1/72 inch), as pdfkit and every PDF reader measure them. */
export const POSTER_SIZES = { a4: [595.28, 841.89], a5: [419.53, 595.28], a6: [297.64, 419.53] } as const;
export type PosterSize = keyof typeof POSTER_SIZES;

export const SCAN_WORDS = { ru: 'Сканируйте, чтобы оплатить', kk: 'Төлеу үшін сканерлеңіз', en: 'Scan to pay' };

/** The band's colour when the merchant has chosen none: the checkout page's own accent. */
const DEFAULT_COLOR = '#1A7F5A';

export interface PosterView {
  size: PosterSize;
  merchantName: string;
  brandColor: string | null;
  /** PNG or JPEG bytes, or null */
  logo: Buffer | null;
  amount: number;
  description: string;
  /** what the QR encodes: the link's public checkout page */
  url: string;
  /** the document's date: the link's creation, so every download of one poster is the same file */
  createdAt: Date;
}

export const tenge = (n: number) => `${n.toLocaleString('ru-RU').replace(/\u00a0|\u202f/g, ' ')} ₸`;

/** White on a dark band, near-black on a light one (relative luminance, WCAG's formula). */
function inkOn(hex: string): string {
  const lin = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin(1) + 0.7152 * lin(3) + 0.0722 * lin(5);
  return l > 0.4 ? '#111111' : '#ffffff';
}

export async function renderPoster(v: PosterView): Promise<Buffer> {
  // Loaded at the first poster: pdfkit and its font tables cost start-up time (as in act-pdf.ts).
  const { default: PDFDocument } = await import('pdfkit');
  const [w, h] = POSTER_SIZES[v.size];
  const s = w / POSTER_SIZES.a4[0];
  const doc = new PDFDocument({
    size: [w, h],
    margin: 0,
    info: { Title: v.description, Author: v.merchantName, Subject: SCAN_WORDS.ru, CreationDate: v.createdAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const color = v.brandColor ?? DEFAULT_COLOR;
  const margin = 40 * s;
  const inner = w - 2 * margin;

  // The band: logo at the left, the merchant's name beside it.
  const band = 110 * s;
  doc.rect(0, 0, w, band).fill(color);
  let nameX = margin;
  if (v.logo) {
    const box = 70 * s;
    try {
      doc.image(v.logo, margin, (band - box) / 2, { fit: [box, box], align: 'center', valign: 'center' });
      nameX = margin + box + 16 * s;
    } catch {
      // A corrupt image is no logo: the name is printed all the same.
    }
  }
  doc
    .font('bold')
    .fontSize(26 * s)
    .fillColor(inkOn(color));
  const nameW = w - nameX - margin;
  const nameH = doc.heightOfString(v.merchantName, { width: nameW, lineBreak: true });
  doc.text(v.merchantName, nameX, Math.max(8 * s, (band - Math.min(nameH, 2 * 32 * s)) / 2), {
    width: nameW,
    height: 2 * 32 * s,
    ellipsis: true,
  });

  // The call to scan: the payer's languages first, English small.
  let y = band + 28 * s;
  doc
    .fillColor('#111111')
    .font('bold')
    .fontSize(28 * s);
  doc.text(SCAN_WORDS.ru, margin, y, { width: inner, align: 'center' });
  y = doc.y + 4 * s;
  doc
    .font('bold')
    .fontSize(22 * s)
    .text(SCAN_WORDS.kk, margin, y, { width: inner, align: 'center' });
  y = doc.y + 2 * s;
  doc
    .font('regular')
    .fontSize(13 * s)
    .fillColor('#555555')
    .text(SCAN_WORDS.en, margin, y, {
      width: inner,
      align: 'center',
    });

  // The QR with its quiet zone (4 modules, as the standard asks), framed in the brand's colour.
  const qr = QRCode.create(v.url, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const side = 330 * s;
  const qx = (w - side) / 2;
  const qy = doc.y + 18 * s;
  const cell = side / (n + 8);
  doc.roundedRect(qx - 6 * s, qy - 6 * s, side + 12 * s, side + 12 * s, 14 * s).fill(color);
  doc.rect(qx, qy, side, side).fill('#ffffff');
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (qr.modules.get(r, c)) doc.rect(qx + (c + 4) * cell, qy + (r + 4) * cell, cell, cell);
    }
  }
  doc.fill('#111111');

  // The amount, the description, the address.
  y = qy + side + 26 * s;
  doc
    .font('bold')
    .fontSize(40 * s)
    .fillColor('#111111')
    .text(tenge(v.amount), margin, y, {
      width: inner,
      align: 'center',
    });
  y = doc.y + 6 * s;
  doc
    .font('regular')
    .fontSize(15 * s)
    .fillColor('#333333');
  const footer = h - 40 * s;
  doc.text(v.description, margin, y, { width: inner, align: 'center', height: footer - y - 8 * s, ellipsis: true });
  doc
    .font('regular')
    .fontSize(8 * s)
    .fillColor('#777777')
    .text(v.url, margin, footer, {
      width: inner,
      align: 'center',
      lineBreak: false,
    });
  doc.end();
  return done;
}
