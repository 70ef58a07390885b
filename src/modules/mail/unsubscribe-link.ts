// The one-click unsubscribe of a one-recipient message (RFC 8058): the link names the message by
// an unsubscribe token (mail-tokens.ts), never the address; the mail-feedback area serves it.
import type { MailRef, MailTokens } from './mail-tokens.ts';

export const UNSUBSCRIBE_PATH = '/unsubscribe/';

export function unsubscribeUrl(baseUrl: string, tokens: MailTokens, ref: MailRef): string {
  return `${baseUrl.replace(/\/+$/, '')}${UNSUBSCRIBE_PATH}${tokens.mint('unsubscribe', ref)}`;
}

/** The header lines the message is sent with (MailMessage.headers). */
export function unsubscribeHeaders(baseUrl: string, tokens: MailTokens, ref: MailRef): Record<string, string> {
  return {
    'List-Unsubscribe': `<${unsubscribeUrl(baseUrl, tokens, ref)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
