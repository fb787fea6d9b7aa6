// The checks that make Webkassa answer code 9 (research section 10), on a draft of either surface: the
// sums, the VAT inside each line, payments, names, mark codes, and the catalogue fields a register's
// protocol asks for. Each returns what is wrong, in words a developer can act on, or null.
import { MAX_NAME, vatInside, type Draft, type DraftLine } from './draft.ts';

export interface RegisterRules {
  /** "2.0.4" registers require PositionType (0 goods, 1 work, 2 service) */
  protocol: '2.0.3' | '2.0.4';
  /** strict catalogue mode: every position needs its NTIN (НКТ code) */
  strictCatalog: boolean;
}

/** The receipt's total: its lines, less discounts and plus markups on the whole receipt. */
export function totalOf(d: Draft): number {
  let total = d.lines.reduce((s, l) => s + l.sumTiyn, 0);
  for (const m of d.modifiers) total += m.type === 'discount' ? -m.sumTiyn : m.sumTiyn;
  return total;
}

const money = (tiyn: number) => (tiyn / 100).toFixed(2);

// One tiyn either way: Webkassa compares the VAT it computes with Tax to 0.01.
const TAX_TOLERANCE_TIYN = 1;

function lineProblem(l: DraftLine, i: number, rules: RegisterRules): string | null {
  const at = `position ${i + 1}`;
  if (!l.name.trim()) return `${at}: PositionName is required`;
  if (l.name.length > MAX_NAME) return `${at}: PositionName is longer than ${MAX_NAME} characters`;
  if (l.quantityMilli <= 0) return `${at}: Count must be above 0`;
  if (l.sumTiyn < 0) return `${at}: the discount is larger than the position`;
  const expected = l.vatPercent === null ? 0 : vatInside(l.sumTiyn, l.vatPercent);
  if (Math.abs(expected - l.taxTiyn) > TAX_TOLERANCE_TIYN)
    return `${at}: Tax ${money(l.taxTiyn)} does not match the VAT inside the sum, ${money(expected)}`;
  if (l.marks.length > 0 && l.marks.length * 1000 !== l.quantityMilli)
    return `${at}: ${l.marks.length} mark code(s) for a quantity of ${l.quantityMilli / 1000}`;
  if (rules.protocol === '2.0.4' && (l.positionType === null || ![0, 1, 2].includes(l.positionType)))
    return `${at}: PositionType (0 goods, 1 work, 2 service) is required on protocol 2.0.4`;
  if (rules.strictCatalog && !l.ntin) return `${at}: NTIN is required (the register checks the national catalogue)`;
  return null;
}

/** What makes the draft invalid (code 9), or null. */
export function draftProblem(d: Draft, rules: RegisterRules): string | null {
  if (d.lines.length === 0) return 'Positions must not be empty';
  for (const [i, l] of d.lines.entries()) {
    const p = lineProblem(l, i, rules);
    if (p) return p;
  }
  for (const m of d.modifiers) {
    const expected = m.vatPercent === null ? 0 : vatInside(m.sumTiyn, m.vatPercent);
    if (Math.abs(expected - m.taxTiyn) > TAX_TOLERANCE_TIYN) return `TicketModifiers: Tax does not match its VAT`;
  }
  const total = totalOf(d);
  if (total <= 0) return 'the total must be above 0';
  if (d.payments.length === 0) return 'Payments must not be empty';
  const seen = new Set<number>();
  for (const p of d.payments) {
    if (seen.has(p.type)) return `PaymentType ${p.type} appears more than once`;
    seen.add(p.type);
  }
  const paid = d.payments.reduce((s, p) => s + p.sumTiyn, 0);
  if (paid < total)
    return `the payments (${(paid / 100).toFixed(2)}) are below the total (${(total / 100).toFixed(2)})`;
  const change = paid - total;
  // Change is given back in cash only: a card or mobile payment cannot exceed what is due.
  const cash = d.payments.find((p) => p.type === 0)?.sumTiyn ?? 0;
  if (change > cash) return 'the payments exceed the total and only cash gives change';
  if (d.changeTiyn !== null && d.changeTiyn !== change)
    return `Change ${(d.changeTiyn / 100).toFixed(2)} is not the payments less the total, ${(change / 100).toFixed(2)}`;
  return null;
}
