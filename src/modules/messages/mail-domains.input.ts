// Mail domain bodies (docs/api/messages.md "Senders and mail domains") and the one way a domain
// name is normalized, shared by domains and by senders' addresses so both compare the same text.
import { domainToASCII } from 'node:url';
import { z } from 'zod';

/** RFC 1035 §2.3.4: a name of at most 253 characters (without the root dot), labels of 1-63 */
export const MAX_DOMAIN_LENGTH = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Where the proof lives and what it says: a TXT record at `_svc-verification.<domain>`. */
export const VERIFICATION_RECORD_PREFIX = '_svc-verification';
export const VERIFICATION_VALUE_PREFIX = 'svc-domain-verification=';

export type DomainCheck = { ok: true; domain: string } | { ok: false; reason: string };

/**
 * The domain as stored and compared: lower case, without a trailing dot, in its ASCII (punycode)
 * form, so `Bücher.Example` and `xn--bcher-kva.example` are the same domain. IP literals, single
 * labels and all-numeric top-level labels are refused: mail from them cannot be proven with DNS.
 */
export function normalizeDomain(raw: string): DomainCheck {
  let text = raw.trim().toLowerCase();
  if (text.endsWith('.')) text = text.slice(0, -1);
  if (text === '') return { ok: false, reason: 'must not be empty' };
  if (text.startsWith('[') || text.includes(':')) return { ok: false, reason: 'must be a domain name, not an IP address' };
  const ascii = domainToASCII(text);
  if (ascii === '') return { ok: false, reason: 'is not a valid domain name' };
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, reason: 'must have at least two labels (example.org)' };
  if (labels.every((l) => /^\d+$/.test(l)) || /^\d+$/.test(labels.at(-1)!)) return { ok: false, reason: 'must be a domain name, not an IP address' };
  if (ascii.length > MAX_DOMAIN_LENGTH) return { ok: false, reason: `must be at most ${MAX_DOMAIN_LENGTH} characters (in its ASCII form)` };
  if (!labels.every((l) => LABEL.test(l))) return { ok: false, reason: 'labels must be 1-63 letters, digits or hyphens, not starting or ending with a hyphen' };
  return { ok: true, domain: ascii };
}

export const domainName = z
  .string({ message: 'must be a domain name such as example.org' })
  .max(1000, 'is too long')
  .transform((value, ctx) => {
    const checked = normalizeDomain(value);
    if (checked.ok) return checked.domain;
    ctx.addIssue({ code: 'custom', message: checked.reason });
    return z.NEVER;
  });

export const createMailDomainInput = z.object({ domain: domainName }).strict();

export type CreateMailDomainInput = z.output<typeof createMailDomainInput>;

export function verificationRecordName(domain: string): string {
  return `${VERIFICATION_RECORD_PREFIX}.${domain}`;
}

export function verificationRecordValue(token: string): string {
  return `${VERIFICATION_VALUE_PREFIX}${token}`;
}
