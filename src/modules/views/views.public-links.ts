// Where a view's shared pages live: outside /v1, served by the front door (module.ts
// httpEndpoints) because a browser frame or a calendar client opens them without a credential;
// the token in the path is their only authorization.
//   /view-embeds/<token>      the read-only page of a view (an EMBED or an internal token)
//   /view-feeds/<token>.ics   the calendar feed of a CALENDAR view (an ICS_FEED token)
import type { Services } from '../../app/context.ts';
import { publicBaseUrl } from '../../app/public-address.ts';

export const EMBED_PATH = '/view-embeds/';
export const FEED_PATH = '/view-feeds/';
export const FEED_SUFFIX = '.ics';

export function embedUrl(services: Services, token: string): string {
  return `${publicBaseUrl(services)}${EMBED_PATH}${token}`;
}

export function feedUrl(services: Services, token: string): string {
  return `${publicBaseUrl(services)}${FEED_PATH}${token}${FEED_SUFFIX}`;
}

/** The host UIDs of feed events end with (RFC 5545 suggests a domain the producer owns). */
export function feedHost(services: Services): string {
  return new URL(publicBaseUrl(services)).hostname;
}
