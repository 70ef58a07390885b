// The one-click unsubscribe of a one-recipient message (RFC 8058): the link names the message by
// an unsubscribe token (mail-tokens.ts), never the address; the mail-feedback area serves it.
//
// The same link can also stand in the body, where a person sees it: the caller writes
// UNSUBSCRIBE_URL_SLOT where it belongs (the composer's `{{unsubscribe_url}}` and default footer),
// and the mailer puts the message's own link there when it stores the message, the one moment the
// message's id (and so its token) exists. A message that cannot be unsubscribed from (a test copy)
// gets the link of a sample page instead, which unsubscribes nobody: the slot never reaches a reader.
import { randomBytes } from 'node:crypto';
import type { MailRef, MailTokens } from './mail-tokens.ts';
import { escapeHtml } from '../../app/html-escape.ts';

export const UNSUBSCRIBE_PATH = '/unsubscribe/';

/**
 * What a body carries where its unsubscribe link goes. Random per process (the rendering and the
 * storing of a message happen in one), so neither a template nor a record value can spell it;
 * letters, digits and hyphens only, so HTML escaping leaves it as it is, even inside an attribute.
 */
export const UNSUBSCRIBE_URL_SLOT = `svc-unsubscribe-url-${randomBytes(12).toString('hex')}`;

/** The path segment of the sample page a test copy's link opens (never a token: tokens are hex). */
export const SAMPLE_UNSUBSCRIBE_SEGMENT = 'test-copy';

const trimmed = (baseUrl: string) => baseUrl.replace(/\/+$/, '');

export function unsubscribeUrl(baseUrl: string, tokens: MailTokens, ref: MailRef): string {
  return `${trimmed(baseUrl)}${UNSUBSCRIBE_PATH}${tokens.mint('unsubscribe', ref)}`;
}

/** The link of a message nobody can unsubscribe from: a page saying so, which changes nothing. */
export function sampleUnsubscribeUrl(baseUrl: string): string {
  return `${trimmed(baseUrl)}${UNSUBSCRIBE_PATH}${SAMPLE_UNSUBSCRIBE_SEGMENT}`;
}

/** The header lines the message is sent with (MailMessage.headers). */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${url}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/** `body` with every slot replaced by `url`, escaped for HTML (element text or a quoted attribute) when `html`. */
export function fillUnsubscribeSlot(body: string, url: string, html: boolean): string {
  if (!body.includes(UNSUBSCRIBE_URL_SLOT)) return body;
  return body.split(UNSUBSCRIBE_URL_SLOT).join(html ? escapeHtml(url) : url);
}
