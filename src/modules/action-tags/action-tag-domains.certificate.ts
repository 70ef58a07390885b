// The certificate half of a resolver domain's verify call: does https://<domain>/ present a
// certificate that a browser accepts for that name? The platform does not issue certificates (the
// team's CDN or the operator's TLS terminator does); it only reports what scanners will meet.
// Bounded like the TXT lookup: the address is looked up through the same resolvers
// (MAIL_DOMAIN_DNS_SERVERS when set) within LOOKUP_TIMEOUT_MS, the handshake within 3 s.
import { Resolver } from 'node:dns/promises';
import tls from 'node:tls';
import type { Config } from '../../app/config.ts';
import { dnsServers, LOOKUP_TIMEOUT_MS } from '../messages/index.ts';

const HANDSHAKE_TIMEOUT_MS = 3_000;

export type CertificateStatus = 'UNCHECKED' | 'VALID' | 'MISSING' | 'INVALID';

export interface CertificateCheck {
  status: Exclude<CertificateStatus, 'UNCHECKED'>;
  expiresAt: Date | null;
  /** why it is not VALID, in the user's words */
  error: string | null;
}

async function addressOf(config: Pick<Config, 'MAIL_DOMAIN_DNS_SERVERS'>, domain: string): Promise<string | null> {
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 1 });
  const servers = dnsServers(config);
  if (servers) resolver.setServers(servers);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(new Error('deadline'));
    }, LOOKUP_TIMEOUT_MS + 500);
  });
  const first = (lookup: Promise<string[]>) => lookup.then((a) => a[0] ?? null).catch(() => null);
  try {
    return await Promise.race([Promise.all([first(resolver.resolve4(domain)), first(resolver.resolve6(domain))]).then(([v4, v6]) => v4 ?? v6), deadline]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

function handshake(address: string, domain: string): Promise<CertificateCheck> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: address, port: 443, servername: domain, rejectUnauthorized: false, timeout: HANDSHAKE_TIMEOUT_MS });
    const done = (check: CertificateCheck) => {
      socket.destroy();
      resolve(check);
    };
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const expiresAt = cert?.valid_to ? new Date(cert.valid_to) : null;
      // the trust chain and the name, as a browser would judge them (the chain alone says nothing of the name)
      const nameProblem = cert?.subject ? tls.checkServerIdentity(domain, cert) : new Error('no certificate');
      if (socket.authorized && !nameProblem) return done({ status: 'VALID', expiresAt, error: null });
      const reason = socket.authorized ? nameProblem!.message : String(socket.authorizationError ?? 'not trusted');
      done({ status: 'INVALID', expiresAt, error: `the certificate served for ${domain} is not accepted: ${reason}` });
    });
    socket.once('timeout', () => done({ status: 'MISSING', expiresAt: null, error: `no TLS answer from ${domain}:443 within ${HANDSHAKE_TIMEOUT_MS / 1000} s` }));
    socket.once('error', (error: NodeJS.ErrnoException) => done({ status: 'MISSING', expiresAt: null, error: `no TLS answer from ${domain}:443 (${error.code ?? error.message})` }));
  });
}

/** What https://<domain>/ presents now. */
export async function checkCertificate(config: Pick<Config, 'MAIL_DOMAIN_DNS_SERVERS'>, domain: string): Promise<CertificateCheck> {
  const address = await addressOf(config, domain);
  if (!address) return { status: 'MISSING', expiresAt: null, error: `${domain} has no address record yet: point it at the platform (CNAME or A/AAAA)` };
  return handshake(address, domain);
}
