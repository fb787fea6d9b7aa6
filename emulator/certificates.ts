// The emulator's certificates, made on first start and reused: its own CA, a server certificate for
// 127.0.0.1 and localhost, and a client certificate (PKCS#12, as the provider issues them) for r2 and r3.
// RSA keys come from node:crypto (fast); node-forge builds and signs the certificates and the bundle.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';

export interface EmulatorFiles {
  dir: string;
  ca: string;
  caPem: string;
  caKey: string;
  serverKey: string;
  serverCert: string;
  clientPfx: string;
  clientPassword: string;
  apiKey: string;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

export function keyPair(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey; pem: string } {
  const k = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = k.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return {
    privateKey: forge.pki.privateKeyFromPem(pem),
    publicKey: forge.pki.publicKeyFromPem(k.publicKey.export({ type: 'spki', format: 'pem' }).toString()),
    pem,
  };
}

let serial = Date.now();

/** A certificate for `publicKey`, signed by `issuer` (itself when absent: a CA). */
export function makeCertificate(o: {
  cn: string;
  publicKey: forge.pki.rsa.PublicKey;
  signer: forge.pki.rsa.PrivateKey;
  issuer?: forge.pki.Certificate;
  notBefore?: Date;
  notAfter?: Date;
  ca?: boolean;
  server?: boolean;
  client?: boolean;
  /** more DNS names of a server certificate, beside 127.0.0.1 and localhost (a container's service name) */
  hostnames?: string[];
}): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = o.publicKey;
  cert.serialNumber = (serial++).toString(16);
  cert.validity.notBefore = o.notBefore ?? new Date(Date.now() - 60_000);
  cert.validity.notAfter = o.notAfter ?? new Date(Date.now() + 5 * YEAR_MS);
  cert.setSubject([
    { name: 'commonName', value: o.cn },
    { name: 'organizationName', value: 'qrapi emulator' },
  ]);
  cert.setIssuer((o.issuer ?? cert).subject.attributes);
  const ext: object[] = [{ name: 'basicConstraints', cA: Boolean(o.ca) }];
  if (o.ca) ext.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true });
  else ext.push({ name: 'keyUsage', digitalSignature: true, keyEncipherment: true });
  if (o.server) {
    ext.push({ name: 'extKeyUsage', serverAuth: true });
    ext.push({
      name: 'subjectAltName',
      altNames: [
        { type: 7, ip: '127.0.0.1' },
        { type: 2, value: 'localhost' },
        ...(o.hostnames ?? []).map((value) => ({ type: 2, value })),
      ],
    });
  }
  if (o.client) ext.push({ name: 'extKeyUsage', clientAuth: true });
  cert.setExtensions(ext);
  cert.sign(o.signer, forge.md.sha256.create());
  return cert;
}

/** A client certificate of the emulator's CA as a PKCS#12 bundle (tests make expired ones with it). */
export function makeClientPfx(
  caCertPem: string,
  caKeyPem: string,
  password: string,
  validity?: { notBefore: Date; notAfter: Date },
): Buffer {
  const caCert = forge.pki.certificateFromPem(caCertPem);
  const caKey = forge.pki.privateKeyFromPem(caKeyPem);
  const k = keyPair();
  const cert = makeCertificate({
    cn: 'qrapi client',
    publicKey: k.publicKey,
    signer: caKey,
    issuer: caCert,
    client: true,
    ...validity,
  });
  const p12 = forge.pkcs12.toPkcs12Asn1(k.privateKey, [cert, caCert], password, { algorithm: 'aes256' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

const FILES = ['ca.pem', 'ca-key.pem', 'server.pem', 'server-key.pem', 'client.p12', 'client.password', 'api-key.txt'];

/** The DNS names a server certificate is valid for. */
export function dnsNames(pem: string): string[] {
  const ext = forge.pki.certificateFromPem(pem).getExtension('subjectAltName') as
    | { altNames?: { type: number; value?: string }[] }
    | undefined;
  return (ext?.altNames ?? []).filter((n) => n.type === 2 && n.value).map((n) => n.value!);
}

/** A server certificate for 127.0.0.1 (and `hostnames`) signed by the CA, written as server.pem and its key. */
export function writeServerCertificate(
  dir: string,
  caCert: forge.pki.Certificate,
  caKey: forge.pki.rsa.PrivateKey,
  hostnames: string[],
): void {
  const server = keyPair();
  const cert = makeCertificate({
    cn: '127.0.0.1',
    publicKey: server.publicKey,
    signer: caKey,
    issuer: caCert,
    server: true,
    hostnames,
  });
  writeFileSync(path.join(dir, 'server.pem'), forge.pki.certificateToPem(cert));
  writeFileSync(path.join(dir, 'server-key.pem'), server.pem, { mode: 0o600 });
}

/**
 * The files of DIR, made when any is missing (they belong together: one CA signed the rest). A server
 * certificate that lacks one of `hostnames` (the emulator reached by a container's name) is made again
 * with the same CA, so clients that trust ca.pem keep trusting it.
 */
export function ensureCertificates(dirIn: string, hostnames: string[] = []): EmulatorFiles {
  const dir = path.resolve(dirIn);
  mkdirSync(dir, { recursive: true });
  const f = (name: string) => path.join(dir, name);
  if (!FILES.every((name) => existsSync(f(name)))) {
    const ca = keyPair();
    const caCert = makeCertificate({
      cn: 'qrapi emulator CA',
      publicKey: ca.publicKey,
      signer: ca.privateKey,
      ca: true,
    });
    const caPem = forge.pki.certificateToPem(caCert);
    const password = randomUUID();
    writeFileSync(f('ca.pem'), caPem);
    writeFileSync(f('ca-key.pem'), ca.pem, { mode: 0o600 });
    writeServerCertificate(dir, caCert, ca.privateKey, hostnames);
    writeFileSync(f('client.password'), password, { mode: 0o600 });
    writeFileSync(f('client.p12'), makeClientPfx(caPem, ca.pem, password), { mode: 0o600 });
    writeFileSync(f('api-key.txt'), `test_${randomUUID()}`, { mode: 0o600 });
  } else if (hostnames.some((h) => !dnsNames(readFileSync(f('server.pem'), 'utf8')).includes(h))) {
    const caCert = forge.pki.certificateFromPem(readFileSync(f('ca.pem'), 'utf8'));
    const caKey = forge.pki.privateKeyFromPem(readFileSync(f('ca-key.pem'), 'utf8'));
    writeServerCertificate(dir, caCert, caKey, hostnames);
  }
  return {
    dir,
    ca: f('ca.pem'),
    caPem: readFileSync(f('ca.pem'), 'utf8'),
    caKey: f('ca-key.pem'),
    serverKey: readFileSync(f('server-key.pem'), 'utf8'),
    serverCert: readFileSync(f('server.pem'), 'utf8'),
    clientPfx: f('client.p12'),
    clientPassword: readFileSync(f('client.password'), 'utf8').trim(),
    apiKey: readFileSync(f('api-key.txt'), 'utf8').trim(),
  };
}
