// The act of a paid partner withdrawal (decisions 21): an A4 PDF in Russian, made with pdfkit and the
// DejaVu Sans font (Cyrillic), from a view model only. Byte-stable: the document's dates are the payout's,
// so every download of one act is the same file.
import { createRequire } from 'node:module';
import { tengeInWords } from './amount-words.ts';

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

export interface ActParty {
  name: string | null;
  bin: string | null;
  address?: string | null;
  iban: string | null;
  bik?: string | null;
  bank: string | null;
  kbe?: string | null;
}

export interface ActView {
  number: string;
  paidAt: Date;
  reference: string | null;
  operator: ActParty;
  partner: ActParty & { company: string };
  lines: { client: string; plan: string; date: Date; base: number; rateBps: number; amount: number }[];
  total: number;
}

const date = (d: Date) =>
  `${String(d.getUTCDate()).padStart(2, '0')}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`;
const money = (n: number) => n.toLocaleString('ru-RU').replace(/\u00a0|\u202f/g, ' ');
const unset = (v: string | null | undefined) => (v && v.trim() ? v : 'не указано');

export async function renderAct(v: ActView): Promise<Buffer> {
  // Loaded at the first act: pdfkit and its font tables were ~0.15 s of every start-up.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `Акт ${v.number}`,
      Author: 'Tolem',
      Subject: 'Выплата партнёрского вознаграждения',
      CreationDate: v.paidAt,
      ModDate: v.paidAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', FONT_BOLD);

  doc.font('bold').fontSize(14).text(`АКТ № ${v.number}`, { align: 'center' });
  doc
    .font('regular')
    .fontSize(10)
    .text('об оказании услуг по привлечению клиентов и выплате партнёрского вознаграждения', { align: 'center' });
  // The place is the operator's (its address, when set); the date is the payout's.
  doc.moveDown(0.5).text(`Дата: ${date(v.paidAt)}`, { align: 'right' });
  doc.moveDown();

  const party = (title: string, p: ActParty, extra?: string) => {
    doc.font('bold').text(title);
    doc
      .font('regular')
      .text(`${extra ? `${extra}, ` : ''}${unset(p.name)}`)
      .text(`БИН/ИИН: ${unset(p.bin)}${p.kbe ? `, КБе: ${p.kbe}` : ''}`)
      .text(`IBAN: ${unset(p.iban)}${p.bik ? `, БИК: ${p.bik}` : ''}`)
      .text(`Банк: ${unset(p.bank)}`);
    if (p.address !== undefined) doc.text(`Адрес: ${unset(p.address)}`);
    doc.moveDown(0.5);
  };
  party('Заказчик:', v.operator);
  party('Исполнитель (партнёр):', v.partner, v.partner.company);

  doc.text('Исполнитель привлёк клиентов, оплативших тарифы сервиса; Заказчик выплатил вознаграждение:');
  doc.moveDown(0.5);
  const cols = [50, 190, 270, 340, 420, 470];
  const widths = [135, 75, 65, 75, 45, 75];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'bold' : 'regular').fontSize(9);
    cells.forEach((c, i) => doc.text(c, cols[i], y, { width: widths[i], align: i >= 3 ? 'right' : 'left' }));
    doc.moveDown(0.4);
    doc.x = 50;
  };
  row(['Клиент', 'Тариф', 'Дата', 'База, ₸', 'Ставка', 'Сумма, ₸'], true);
  doc.moveTo(50, doc.y).lineTo(545, doc.y).stroke();
  doc.moveDown(0.2);
  for (const l of v.lines) row([l.client, l.plan, date(l.date), money(l.base), `${l.rateBps / 100}%`, money(l.amount)]);
  doc.moveTo(50, doc.y).lineTo(545, doc.y).stroke();
  doc.moveDown(0.5).fontSize(10);
  doc.font('bold').text(`Итого: ${money(v.total)} тенге`, 50);
  doc.font('regular').text(`Сумма прописью: ${tengeInWords(v.total)}`);
  doc.text('В том числе НДС: без НДС');
  if (v.reference) doc.text(`Платёжный документ: ${v.reference}`);
  doc.moveDown();
  doc.text('Услуги оказаны полностью и в срок. Стороны претензий по объёму, качеству и срокам не имеют.');
  doc.moveDown(2);
  const y = doc.y;
  doc.text('Заказчик: ____________________', 50, y);
  doc.text('Исполнитель: ____________________', 320, y);
  doc.text('М.П.', 50, y + 30).text('М.П.', 320, y + 30);
  doc.end();
  return done;
}
