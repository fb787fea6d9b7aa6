// Reading a PKCS#12 bundle (the account's client certificate): whether the password opens it, and when
// its certificate expires (shown on the account, warned about 30 days ahead). node-forge, because Node's
// crypto can use a PFX for TLS but cannot read one.
import forge from 'node-forge';

export interface PfxInfo {
  notAfter: Date;
  notBefore: Date;
  subject: string;
}

export class BadCertificate extends Error {}

export function readPfx(pfx: Buffer, password: string): PfxInfo {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(pfx.toString('binary')), password);
  } catch {
    throw new BadCertificate('the certificate file is not a PKCS#12 bundle, or its password is wrong');
  }
  const bags = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  const keys = p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? [];
  if (!keys.length) throw new BadCertificate('the certificate file holds no private key');
  // The client certificate is the one whose public key belongs to the private key; a bundle may add CAs.
  const key = keys[0].key as forge.pki.rsa.PrivateKey | undefined;
  const cert =
    bags.map((b) => b.cert).find((c) => c && key && (c.publicKey as forge.pki.rsa.PublicKey).n.equals(key.n)) ??
    bags[0]?.cert;
  if (!cert) throw new BadCertificate('the certificate file holds no certificate');
  const cn = cert.subject.getField('CN');
  return { notAfter: cert.validity.notAfter, notBefore: cert.validity.notBefore, subject: cn ? String(cn.value) : '' };
}
