// The fiscal emulator's files in --dir, made on first start and reused: its own CA, a server certificate
// for 127.0.0.1 and localhost (both names, so domain_505 can send a client from one to the other) plus any
// --hostname, and keys.json with the two services' API keys and the control token. The certificate maker
// and the server certificate's writer are the provider emulator's (emulator/certificates.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import { dnsNames, keyPair, makeCertificate, writeServerCertificate } from '../emulator/certificates.ts';

export interface FiscalFiles {
  ca: string;
  caPem: string;
  serverKey: string;
  serverCert: string;
  webkassaApiKey: string;
  rekassaApiKey: string;
  controlToken: string;
}

const FILES = ['ca.pem', 'ca-key.pem', 'server.pem', 'server-key.pem', 'keys.json'];

export function ensureFiles(dirIn: string, hostnames: string[] = []): FiscalFiles {
  const dir = path.resolve(dirIn);
  mkdirSync(dir, { recursive: true });
  const f = (name: string) => path.join(dir, name);
  const serverFor = (caCert: forge.pki.Certificate, caKey: forge.pki.rsa.PrivateKey) =>
    writeServerCertificate(dir, caCert, caKey, hostnames);
  if (!FILES.every((name) => existsSync(f(name)))) {
    const ca = keyPair();
    const caCert = makeCertificate({
      cn: 'fiscal emulator CA',
      publicKey: ca.publicKey,
      signer: ca.privateKey,
      ca: true,
    });
    writeFileSync(f('ca.pem'), forge.pki.certificateToPem(caCert));
    writeFileSync(f('ca-key.pem'), ca.pem, { mode: 0o600 });
    serverFor(caCert, ca.privateKey);
    const keys = {
      webkassa_api_key: `WKD-${randomUUID().toUpperCase()}`,
      rekassa_api_key: randomUUID(),
      control_token: randomBytes(16).toString('hex'),
    };
    writeFileSync(f('keys.json'), `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  } else if (hostnames.some((h) => !dnsNames(readFileSync(f('server.pem'), 'utf8')).includes(h))) {
    serverFor(
      forge.pki.certificateFromPem(readFileSync(f('ca.pem'), 'utf8')),
      forge.pki.privateKeyFromPem(readFileSync(f('ca-key.pem'), 'utf8')),
    );
  }
  const keys = JSON.parse(readFileSync(f('keys.json'), 'utf8'));
  return {
    ca: f('ca.pem'),
    caPem: readFileSync(f('ca.pem'), 'utf8'),
    serverKey: readFileSync(f('server-key.pem'), 'utf8'),
    serverCert: readFileSync(f('server.pem'), 'utf8'),
    webkassaApiKey: keys.webkassa_api_key,
    rekassaApiKey: keys.rekassa_api_key,
    controlToken: keys.control_token,
  };
}
