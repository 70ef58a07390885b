// How a resolution is classified (docs/api/action-tags.md "Scans"): LINK_PREVIEW for the fetchers
// chat apps and social networks send to unfurl a pasted link (and HEAD requests, which read no
// page), BOT for crawlers and tools the maintained `isbot` list knows (and requests without a user
// agent), HUMAN otherwise. Analytics count HUMAN unless asked for the others.
import { isbot } from 'isbot';

export type TrafficClass = 'HUMAN' | 'BOT' | 'LINK_PREVIEW';

/** The unfurlers of chat apps and social networks: they fetch a link once per paste, not per person. */
const PREVIEW_FETCHERS =
  /slackbot|slack-imgproxy|discordbot|telegrambot|whatsapp|facebookexternalhit|facebookcatalog|meta-externalagent|twitterbot|linkedinbot|skypeuripreview|microsoftpreview|teams|pinterest(bot)?|redditbot|embedly|iframely|applebot|google-pagerenderer|googleother|vkshare|viber|line\/|kakaotalk-scrap|snapchat|mastodon|bluesky|signal|outlook|yahoo.*slurp|bingpreview|zoominfobot|mattermost|rocket\.chat|nuzzel|quora link preview|bitlybot|tumblr|xing-contenttabreceiver|w3c_validator/i;

/** user agents already classified: a few browsers' strings make most of the traffic, and isbot's pattern is long */
const classified = new Map<string, TrafficClass>();
const CLASSIFIED_MAX = 5_000;

export function classifyTraffic(method: string, userAgent: string | undefined): TrafficClass {
  if (method === 'HEAD') return 'LINK_PREVIEW';
  const ua = userAgent?.trim() ?? '';
  if (!ua) return 'BOT';
  let known = classified.get(ua);
  if (known === undefined) {
    known = PREVIEW_FETCHERS.test(ua) ? 'LINK_PREVIEW' : isbot(ua) ? 'BOT' : 'HUMAN';
    if (classified.size >= CLASSIFIED_MAX) classified.clear();
    classified.set(ua, known);
  }
  return known;
}

export const INTERACTION_SOURCES = ['QR', 'NFC', 'LINK', 'UNKNOWN'] as const;
export type InteractionSource = (typeof INTERACTION_SOURCES)[number];

/** The declared `source` query parameter; anything else is UNKNOWN. */
export function interactionSourceOf(value: string | null): InteractionSource {
  const upper = value?.toUpperCase();
  return upper === 'QR' || upper === 'NFC' || upper === 'LINK' ? upper : 'UNKNOWN';
}

/** The referrer without its query and fragment (they carry other sites' ids and searches), or null. */
export function strippedReferrer(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return `${url.origin}${url.pathname}`.slice(0, 500);
  } catch {
    return null;
  }
}
