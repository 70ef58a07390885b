// Custom domains of published sites (docs/api/websites.md "A custom domain"): a site may name one
// hostname of the team's own (`customDomain`, settable by PUT /v1/websites/{id}), pointed at the
// platform by a CNAME record; requests whose Host is that name are served as the site, every path
// of that host being a path of the site.
import { z } from 'zod';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The Host header as a domain: lower case, without port or trailing dot. */
export function hostOf(header: string | undefined): string {
  if (!header) return '';
  const host = header.trim().toLowerCase();
  const bare = host.startsWith('[') ? host : host.replace(/:\d+$/, '');
  return bare.replace(/\.$/, '');
}

/** A DNS name of two or more labels with a letter-bearing top label (no IP address, no single label, no port). */
export function isCustomDomain(value: string): boolean {
  if (value.length > 253) return false;
  const labels = value.split('.');
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && /[a-z]/.test(labels.at(-1)!);
}

export const customDomainSchema = z
  .string({ message: 'must be a hostname such as www.example.org' })
  .trim()
  .transform((v) => v.toLowerCase().replace(/\.$/, ''))
  .refine(isCustomDomain, 'must be a hostname such as www.example.org (letters, digits, hyphens and dots; no scheme, port or path)');

/** The platform's own hostname (PUBLIC_BASE_URL, else the address it listens on): never a site's domain. */
export function platformHost(services: { config: { PUBLIC_BASE_URL?: string }; publicAddress: { baseUrl: string | null } }): string {
  const base = services.config.PUBLIC_BASE_URL ?? services.publicAddress.baseUrl;
  try {
    return base ? new URL(base).hostname.toLowerCase() : '';
  } catch {
    return '';
  }
}
