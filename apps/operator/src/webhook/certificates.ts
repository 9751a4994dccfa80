import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

/** A serving certificate and the CA that signed it, PEM encoded. */
export interface ServingCertificate {
  readonly caCert: string;
  readonly cert: string;
  readonly key: string;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: forge.pki.privateKeyFromPem(
      privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ),
    publicKey: forge.pki.publicKeyFromPem(
      publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ),
  };
}

function certificate(
  publicKey: forge.pki.PublicKey,
  commonName: string,
  now: Date,
  years: number,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial: the first bit clear.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(now.getTime() - 3600_000);
  cert.validity.notAfter = new Date(now.getTime() + years * YEAR_MS);
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  return cert;
}

/**
 * A self-signed CA (10 years) and a serving certificate it signs (1 year) for `hosts`
 * (DNS names, or IP addresses).
 */
export function selfSignedCertificate(
  hosts: readonly string[],
  now = new Date(),
): ServingCertificate {
  if (hosts.length === 0) throw new Error('a serving certificate needs at least one host name');
  const ca = keyPair();
  const caCert = certificate(ca.publicKey, 'logsvc-operator-webhook-ca', now, 10);
  caCert.setIssuer(caCert.subject.attributes);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  caCert.sign(ca.privateKey, forge.md.sha256.create());

  const leaf = keyPair();
  const cert = certificate(leaf.publicKey, hosts[0], now, 1);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })),
    },
  ]);
  cert.sign(ca.privateKey, forge.md.sha256.create());
  return {
    caCert: forge.pki.certificateToPem(caCert),
    cert: forge.pki.certificateToPem(cert),
    key: forge.pki.privateKeyToPem(leaf.privateKey),
  };
}

/**
 * Whether `certPem` still serves `hosts` for at least `marginMs` (a kept certificate is
 * replaced a month before it expires, or when the host names changed).
 */
export function certificateFits(
  certPem: string,
  hosts: readonly string[],
  now = new Date(),
  marginMs = 30 * 24 * 3600 * 1000,
): boolean {
  try {
    const cert = forge.pki.certificateFromPem(certPem);
    if (cert.validity.notAfter.getTime() - now.getTime() < marginMs) return false;
    const san = cert.getExtension('subjectAltName') as
      { altNames?: { type: number; value?: string; ip?: string }[] } | undefined;
    const names = new Set((san?.altNames ?? []).map((n) => (n.type === 7 ? n.ip : n.value)));
    return hosts.every((h) => names.has(h));
  } catch {
    return false;
  }
}
