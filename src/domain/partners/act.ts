// What the act of a paid withdrawal says (decisions 21): its number W-<year>-<id>, the payout date and
// reference, the operator's requisites (OPERATOR_*), the partner's as they were when it asked (the bank
// details sealed on the withdrawal), and the commissions the payout covered. Rendering is web/act-pdf.ts.
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';

export async function actOf(deps: Pick<Deps, 'config' | 'db' | 'secrets'>, partnerId: number, withdrawalId: number) {
  const w = (
    await deps.db.query<{
      id: number;
      amount: string;
      status: string;
      paid_at: Date | null;
      reference: string | null;
      bank_sealed: string;
      company: string;
    }>(
      `SELECT w.id, w.amount, w.status, w.paid_at, w.reference, w.bank_sealed, p.company_name AS company
       FROM withdrawals w JOIN partners p ON p.id = w.partner_id WHERE w.id = $1 AND w.partner_id = $2`,
      [withdrawalId, partnerId],
    )
  ).rows[0];
  if (!w) throw new AppError('withdrawal_not_found', `withdrawal ${withdrawalId} not found`);
  if (w.status !== 'paid' || !w.paid_at)
    throw new AppError(
      'withdrawal_not_paid',
      `withdrawal ${withdrawalId} is ${w.status}; its act exists once it is paid`,
    );
  const bank = JSON.parse(deps.secrets.sealer.open(w.bank_sealed)) as {
    recipient_name: string | null;
    bin: string | null;
    iban: string | null;
    bik: string | null;
    bank_name: string | null;
    kbe: string | null;
  };
  const lines = (
    await deps.db.query<{ client: string; plan: string; date: Date; base: string; rate_bps: number; amount: string }>(
      `SELECT c.name AS client, m.plan, m.created_at AS date, m.base_amount AS base, m.rate_bps, m.amount
       FROM commissions m JOIN clients c ON c.id = m.client_id WHERE m.withdrawal_id = $1 ORDER BY m.created_at, m.id`,
      [withdrawalId],
    )
  ).rows;
  const o = deps.config.operator;
  return {
    number: `W-${w.paid_at.getUTCFullYear()}-${w.id}`,
    paidAt: w.paid_at,
    reference: w.reference,
    operator: {
      name: o.name ?? null,
      bin: o.bin ?? null,
      address: o.address ?? null,
      iban: o.iban ?? null,
      bank: o.bank ?? null,
    },
    partner: {
      company: w.company,
      name: bank.recipient_name,
      bin: bank.bin,
      iban: bank.iban,
      bik: bank.bik,
      bank: bank.bank_name,
      kbe: bank.kbe,
    },
    lines: lines.map((l) => ({
      client: l.client,
      plan: l.plan,
      date: l.date,
      base: Number(l.base),
      rateBps: l.rate_bps,
      amount: Number(l.amount),
    })),
    total: Number(w.amount),
  };
}
