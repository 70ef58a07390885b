// TLS material: the configured certificate, or a self-signed one generated into the data
// folder on first start (localhost, 127.0.0.1 and ::1 as names) so HTTPS works on a bare machine.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** path of the certificate, so clients (curl --cacert, tests) can trust it */
  certFile: string;
  selfSigned: boolean;
}

type TlsSettings = Pick<Config, 'TLS_CERT_FILE' | 'TLS_KEY_FILE' | 'dataDir'>;

/** Where the certificate the server presents is (or will be, before the first start): `svc bootstrap` prints it. */
export function tlsCertificateFile(config: TlsSettings): string {
  return config.TLS_CERT_FILE && config.TLS_KEY_FILE ? path.resolve(config.TLS_CERT_FILE) : path.join(config.dataDir, 'tls', 'self-signed-cert.pem');
}

export async function loadTls(config: TlsSettings): Promise<TlsMaterial> {
  if (config.TLS_CERT_FILE && config.TLS_KEY_FILE) {
    return {
      cert: fs.readFileSync(config.TLS_CERT_FILE, 'utf8'),
      key: fs.readFileSync(config.TLS_KEY_FILE, 'utf8'),
      certFile: tlsCertificateFile(config),
      selfSigned: false,
    };
  }
  const dir = path.join(config.dataDir, 'tls');
  const certFile = tlsCertificateFile(config);
  const keyFile = path.join(dir, 'self-signed-key.pem');
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const notAfterDate = new Date();
    notAfterDate.setFullYear(notAfterDate.getFullYear() + 2);
    // the certificate library is loaded only when a certificate is made (once per data folder)
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    });
    fs.writeFileSync(keyFile, pems.private, { mode: 0o600 });
    fs.writeFileSync(certFile, pems.cert, { mode: 0o644 });
  }
  return { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8'), certFile, selfSigned: true };
}
