import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * A local certificate authority for the IoT stand-ins: real X.509 v3 certificates (RSA 2048,
 * sha256WithRSAEncryption), DER-encoded here and signed with node:crypto, so no dependency is
 * needed and node's X509Certificate, OpenSSL and mosquitto read them as they read AWS's. The CA
 * stands in for Amazon's: the broker's TLS port trusts it, CreateKeysAndCertificate issues device
 * certificates from it, and its certificate is what a unit loads as its CA file.
 */

// ---- DER --------------------------------------------------------------------------------------

const length = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, content: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
/**
 * A DER INTEGER of unsigned big-endian bytes: minimal (leading zero bytes dropped, DER forbids
 * them; a random serial starts with 0x00 one time in 256), then one zero byte back when the high
 * bit is set so it stays positive.
 */
export const derInteger = (bytes: Buffer): Buffer => {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  const minimal = bytes.subarray(start);
  return tlv(0x02, (minimal[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
};
const smallInt = (n: number) => derInteger(Buffer.from([n]));
const nul = Buffer.from([0x05, 0x00]);
const bool = (b: boolean) => tlv(0x01, Buffer.from([b ? 0xff : 0x00]));
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);
const oid = (dotted: string): Buffer => {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [40 * (parts[0] ?? 0) + (parts[1] ?? 0)];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
};
const time = (d: Date): Buffer => {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
};

const OID = {
  sha256WithRSA: '1.2.840.113549.1.1.11',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  subjectKeyId: '2.5.29.14',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

const name = (cn: string) => seq(set(seq(oid(OID.organization), utf8('Vat-Man local'))), set(seq(oid(OID.commonName), utf8(cn))));
const extension = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));
const algorithm = seq(oid(OID.sha256WithRSA), nul);

interface IssuedCertificate {
  readonly certificatePem: string;
  /** The certificate's SHA-256 over its DER: AWS IoT's certificate id has this form (64 hex). */
  readonly certificateId: string;
  readonly publicKeyPem: string;
  readonly privateKeyPem: string;
}

interface CertSpec {
  readonly subject: string;
  readonly publicKey: KeyObject;
  readonly issuer: { readonly name: string; readonly key: KeyObject };
  readonly ca: boolean;
  readonly usage: 'ca' | 'server' | 'client';
  readonly days: number;
  readonly altNames?: readonly { readonly dns?: string; readonly ip?: string }[];
}

const certificateDer = (spec: CertSpec): Buffer => {
  const spki = spec.publicKey.export({ type: 'spki', format: 'der' });
  const now = Date.now();
  const keyUsage = spec.usage === 'ca' ? Buffer.from([0x03, 0x02, 0x01, 0x06]) : Buffer.from([0x03, 0x02, 0x05, 0xa0]); // certSign+cRLSign / digitalSignature+keyEncipherment
  const extensions = [
    extension(OID.basicConstraints, true, spec.ca ? seq(bool(true)) : seq()),
    extension(OID.keyUsage, true, keyUsage),
    extension(OID.subjectKeyId, false, octets(createHash('sha1').update(spki).digest())),
    ...(spec.usage === 'ca' ? [] : [extension(OID.extKeyUsage, false, seq(oid(spec.usage === 'server' ? OID.serverAuth : OID.clientAuth)))]),
    ...(spec.altNames?.length
      ? [
          extension(
            OID.subjectAltName,
            false,
            seq(...spec.altNames.map((a) => (a.dns ? tlv(0x82, Buffer.from(a.dns)) : tlv(0x87, Buffer.from((a.ip ?? '').split('.').map(Number)))))),
          ),
        ]
      : []),
  ];
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const tbs = seq(
    explicit(0, smallInt(2)),
    derInteger(serial),
    algorithm,
    name(spec.issuer.name),
    seq(time(new Date(now - 60_000)), time(new Date(now + spec.days * 86_400_000))),
    name(spec.subject),
    spki,
    explicit(3, seq(...extensions)),
  );
  return seq(tbs, algorithm, bits(sign('sha256', tbs, spec.issuer.key)));
};

const pem = (der: Buffer) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;

const newKeys = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

export interface LocalCa {
  /** The CA's certificate (a unit's CA file; the broker's trust for client certificates). */
  readonly caPem: string;
  /** A device certificate and its fresh key pair (IoT CreateKeysAndCertificate). */
  issueDevice(subject: string): IssuedCertificate;
  /** A server certificate for localhost and 127.0.0.1 (the broker's TLS port). */
  issueServer(): { certPem: string; keyPem: string };
}

/** The CA kept in `dir` (made on first use), so certificates issued before a restart stay valid. */
export const localCa = (dir: string): LocalCa => {
  mkdirSync(dir, { recursive: true });
  const keyFile = join(dir, 'ca-key.pem');
  const certFile = join(dir, 'ca-cert.pem');
  const CA_NAME = 'Vat-Man local IoT CA';
  if (!existsSync(keyFile) || !existsSync(certFile)) {
    const { privateKey, publicKey } = newKeys();
    const der = certificateDer({ subject: CA_NAME, publicKey, issuer: { name: CA_NAME, key: privateKey }, ca: true, usage: 'ca', days: 3650 });
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
    writeFileSync(certFile, pem(der));
  }
  const caKey = createPrivateKey(readFileSync(keyFile));
  const caPem = readFileSync(certFile, 'utf8');
  const issuer = { name: CA_NAME, key: caKey };
  return {
    caPem,
    issueDevice(subject) {
      const { privateKey, publicKey } = newKeys();
      const der = certificateDer({ subject, publicKey, issuer, ca: false, usage: 'client', days: 3650 });
      return {
        certificatePem: pem(der),
        certificateId: createHash('sha256').update(der).digest('hex'),
        publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }) as string,
        privateKeyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
      };
    },
    issueServer() {
      const { privateKey, publicKey } = newKeys();
      const der = certificateDer({ subject: 'localhost', publicKey, issuer, ca: false, usage: 'server', days: 825, altNames: [{ dns: 'localhost' }, { ip: '127.0.0.1' }] });
      return { certPem: pem(der), keyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }) as string };
    },
  };
};

/** Whether `certPem` was issued by the CA (for the stand-ins' own checks and tests). */
export const issuedBy = (certPem: string, caPem: string): boolean => new X509Certificate(certPem).verify(new X509Certificate(caPem).publicKey);
