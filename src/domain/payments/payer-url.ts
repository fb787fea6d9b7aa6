// Where a payer opens one operation (decisions 26): `{PUBLIC_BASE_URL}/pay/{op_id}`, a live operation's
// deep_link, and its refunds' return QR pages beneath it.
export function payerPageUrl(publicBaseUrl: string, opId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/pay/${encodeURIComponent(opId)}`;
}

export function returnPageUrl(publicBaseUrl: string, opId: string, refundId: string): string {
  return `${payerPageUrl(publicBaseUrl, opId)}/refunds/${encodeURIComponent(refundId)}`;
}
