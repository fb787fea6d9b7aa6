// Fiscal registers, their shifts and receipts on the wire (decisions 27). A register never shows its
// credentials or session; a receipt shows exactly the lines it was issued with.
import { Type } from 'typebox';
import { Amount, Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';
import type { Register } from '../../domain/fiscal/registers-store.ts';
import type { FiscalReceipt } from '../../domain/fiscal/receipts-store.ts';
import type { Shift } from '../../domain/fiscal/shifts-store.ts';

export const PositionType = Type.String({ enum: ['goods', 'work', 'service'] });
export const VatRateBps = Type.Integer({ minimum: 0, maximum: 10_000, description: 'VAT in basis points: 1600 = 16%' });

export const RegisterRecord = Type.Object(
  {
    id: Type.String({ description: 'fr_<ULID>' }),
    driver: Type.String({ enum: ['sandbox', 'webkassa', 'rekassa'] }),
    mode: Type.String({ enum: ['live', 'test'] }),
    display_name: Nullable(Type.String()),
    register_number: Type.String({ description: "the service's number of the register (Webkassa: ЗНК)" }),
    payment_type: Type.String({ enum: ['mobile', 'card'] }),
    vat_payer: Type.Boolean(),
    vat_rate_bps: VatRateBps,
    default_item_name: Type.String(),
    section_code: Nullable(Type.String()),
    provider_account_id: Nullable(Type.Integer({ description: 'null: every provider account of the mode' })),
    auto: Type.Boolean({ description: 'receipts are made for every paid operation it covers' }),
    register: Type.Object({
      unique_number: Nullable(Type.String({ description: 'ЗНМ' })),
      registration_number: Nullable(Type.String({ description: 'РНМ' })),
      ofd: Nullable(Type.Object({ name: Type.String(), code: Nullable(Type.String()), host: Nullable(Type.String()) })),
    }),
    status: Type.String({ enum: ['active', 'blocked', 'offline', 'auth_failed'] }),
    shift: Nullable(Type.Object({ number: Type.Integer(), opened_at: Timestamp })),
    pending_receipts: Type.Optional(Type.Integer()),
    checked_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'FiscalRegister' },
);

export const toRegisterRecord = (g: Register & { pending_receipts?: number }) => ({
  id: g.id,
  driver: g.driver,
  mode: g.mode,
  display_name: g.display_name,
  register_number: g.register_number,
  payment_type: g.payment_type,
  vat_payer: g.vat_payer,
  vat_rate_bps: g.vat_rate_bps,
  default_item_name: g.default_item_name,
  section_code: g.section_code,
  provider_account_id: g.provider_account_id === null ? null : Number(g.provider_account_id),
  auto: g.auto,
  register: { unique_number: g.unique_number, registration_number: g.registration_number, ofd: g.ofd },
  status: g.status,
  shift: g.shift_opened_at && g.shift_number !== null ? { number: g.shift_number, opened_at: g.shift_opened_at } : null,
  ...(g.pending_receipts === undefined ? {} : { pending_receipts: g.pending_receipts }),
  checked_at: g.checked_at,
  created_at: g.created_at,
  updated_at: g.updated_at,
});

export const ShiftRecord = Type.Object(
  {
    number: Type.Integer(),
    opened_at: NullableTimestamp,
    closed_at: NullableTimestamp,
    z_report: Nullable(
      Type.Object({
        sale_count: Type.Integer(),
        sale_total: Amount,
        return_count: Type.Integer(),
        return_total: Amount,
        offline_count: Nullable(Type.Integer()),
      }),
    ),
  },
  { title: 'FiscalShift' },
);

export const toShiftRecord = (s: Shift) => ({
  number: s.number,
  opened_at: s.opened_at,
  closed_at: s.closed_at,
  z_report:
    s.closed_at && s.sale_count !== null
      ? {
          sale_count: s.sale_count,
          sale_total: Number(s.sale_total ?? 0),
          return_count: s.return_count ?? 0,
          return_total: Number(s.return_total ?? 0),
          offline_count: s.offline_count,
        }
      : null,
});

export const ReceiptLine = Type.Object({
  name: Type.String(),
  price: Amount,
  quantity: Type.Integer(),
  total: Amount,
  unit_code: Type.Integer(),
  ntin: Nullable(Type.String()),
  gtin: Nullable(Type.String()),
  vat_rate_bps: Nullable(VatRateBps),
  section_code: Nullable(Type.String()),
  position_type: PositionType,
});

export const ReceiptRecord = Type.Object(
  {
    id: Type.String({ description: 'rc_<ULID>, sent to the register as its external number' }),
    kind: Type.String({ enum: ['sale', 'return'] }),
    operation_id: Type.String(),
    refund_id: Nullable(Type.String()),
    register_id: Type.String(),
    status: Type.String({ enum: ['pending', 'issued', 'failed'] }),
    offline: Type.Boolean({ description: 'signed by the register while its fiscal data operator was unreachable' }),
    amount: Amount,
    payment_type: Type.String({ enum: ['mobile', 'card'] }),
    items: Type.Array(ReceiptLine),
    fiscal_sign: Nullable(Type.String()),
    registration_number: Nullable(Type.String()),
    shift_number: Nullable(Type.Integer()),
    check_url: Nullable(Type.String({ description: "the fiscal data operator's check page" })),
    ticket_url: Nullable(Type.String()),
    issued_at: NullableTimestamp,
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    attempts: Type.Integer(),
    created_at: Timestamp,
  },
  { title: 'Receipt' },
);

export const toReceiptRecord = (r: FiscalReceipt) => ({
  id: r.id,
  kind: r.kind,
  operation_id: r.operation_id,
  refund_id: r.refund_id,
  register_id: r.register_id,
  status: r.status,
  offline: r.offline,
  amount: Number(r.amount),
  payment_type: r.payment_type,
  items: r.items,
  fiscal_sign: r.fiscal_sign,
  registration_number: r.registration_number,
  shift_number: r.shift_number,
  check_url: r.check_url,
  ticket_url: r.ticket_url,
  issued_at: r.issued_at,
  error: r.error,
  attempts: r.attempts,
  created_at: r.created_at,
});

/** What a payment shows of its sale receipt. */
export const PaymentReceipt = Nullable(
  Type.Object(
    {
      id: Type.String(),
      status: Type.String({ enum: ['pending', 'issued', 'failed'] }),
      check_url: Nullable(Type.String()),
    },
    { title: 'PaymentReceipt' },
  ),
);
