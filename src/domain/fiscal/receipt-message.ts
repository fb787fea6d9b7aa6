// The message that brings a payer a receipt (decisions 27): its check link, in Russian, Kazakh and English
// at once (the payer's language is not known), by e-mail or SMS. Used when the API is asked to send one
// and when a sale receipt is issued for a payment whose payer gave the checkout an e-mail.
import type { NewMessage } from '../channels/outbox.ts';
import type { FiscalReceipt } from './receipts-store.ts';

export function receiptMessage(
  rc: Pick<FiscalReceipt, 'kind' | 'amount' | 'fiscal_sign' | 'check_url' | 'client_id'>,
  channel: 'email' | 'sms',
  recipient: string,
): NewMessage {
  const what = rc.kind === 'sale' ? 'Фискальный чек / Фискалдық чек / Fiscal receipt' : 'Чек возврата / Return receipt';
  const body =
    channel === 'email'
      ? `${what}: ${rc.amount} ₸, ФП ${rc.fiscal_sign}\n\n` +
        `Проверить чек / Чекті тексеру / Check it: ${rc.check_url}\n`
      : `${rc.kind === 'sale' ? 'Чек' : 'Чек возврата'} ${rc.amount} ₸: ${rc.check_url}`;
  return {
    channel,
    recipient,
    subject: channel === 'email' ? `${what} ${rc.amount} ₸` : undefined,
    body,
    clientId: rc.client_id,
    purpose: 'fiscal_receipt',
  };
}
