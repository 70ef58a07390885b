// The DNS half of proving a mail domain: ask for the TXT records at the verification name and
// look for the team's value among them. MAIL_DOMAIN_DNS_SERVERS replaces the system's resolvers
// (tests point it at a local server). Every lookup is bounded: one try of at most 2 s per server,
// and an overall deadline, so a dead resolver costs the caller seconds, never a hung request.
import { Resolver } from 'node:dns/promises';
import type { Config } from '../../app/config.ts';

export const LOOKUP_TIMEOUT_MS = 2_000;
/** the deadline of the whole lookup, whatever the resolver's own retries over several servers do */
const OVERALL_DEADLINE_MS = 2_500;

export type VerificationResult = { ok: true } | { ok: false; reason: string };

export function dnsServers(config: Pick<Config, 'MAIL_DOMAIN_DNS_SERVERS'>): string[] | null {
  const raw = config.MAIL_DOMAIN_DNS_SERVERS?.trim();
  if (!raw) return null;
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

/** A TXT record split into several strings (each at most 255 octets) is one value: joined as published. */
const joined = (records: string[][]) => records.map((chunks) => chunks.join('').trim());

function failure(error: unknown, recordName: string): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ENODATA' || code === 'ENOTFOUND') return `no TXT record found at ${recordName}`;
  if (code === 'ETIMEOUT' || code === 'ECONNREFUSED' || code === 'DEADLINE') return `the DNS lookup of ${recordName} timed out (no answer within ${LOOKUP_TIMEOUT_MS / 1000} s); try again later`;
  if (code === 'ESERVFAIL' || code === 'EREFUSED') return `the DNS server could not answer for ${recordName} (${code}); try again later`;
  return `the DNS lookup of ${recordName} failed (${code ?? 'unknown error'}); try again later`;
}

/** Whether one of the TXT records at `recordName` is exactly `expected`; if not, why, in the user's words. */
export async function checkTxtRecord(config: Pick<Config, 'MAIL_DOMAIN_DNS_SERVERS'>, recordName: string, expected: string): Promise<VerificationResult> {
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 1 });
  const servers = dnsServers(config);
  if (servers) resolver.setServers(servers);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(Object.assign(new Error('DNS lookup deadline'), { code: 'DEADLINE' }));
    }, OVERALL_DEADLINE_MS);
  });
  try {
    const values = joined(await Promise.race([resolver.resolveTxt(recordName), deadline]));
    if (values.includes(expected)) return { ok: true };
    if (values.length === 0) return { ok: false, reason: `no TXT record found at ${recordName}` };
    return { ok: false, reason: `${values.length} TXT record${values.length === 1 ? '' : 's'} found at ${recordName}, but none is ${expected}` };
  } catch (error) {
    return { ok: false, reason: failure(error, recordName) };
  } finally {
    clearTimeout(timer);
  }
}
