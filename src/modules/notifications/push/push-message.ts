// What a push says: the notification's title and body in the person's language, and the ids an
// app needs to open it, cut to fit the provider's payload limit.
import type { LocalizedText } from '../../../app/localized-text.ts';
import type { PushMessage } from './push-sender.ts';

/**
 * The text in `language` (exact tag, then its primary language: "pt-BR" finds "pt"), else
 * English, else the first language given.
 */
export function textIn(text: unknown, language: string | null): string | null {
  if (text === null || text === undefined) return null;
  if (typeof text === 'string') return text;
  if (typeof text !== 'object') return null;
  const byTag = text as Exclude<LocalizedText, string>;
  const tags = Object.keys(byTag);
  if (tags.length === 0) return null;
  const find = (wanted: string) => tags.find((t) => t.toLowerCase() === wanted.toLowerCase());
  const primary = (tag: string) => tag.split('-')[0]!.toLowerCase();
  const chosen =
    (language && (find(language) ?? find(primary(language)) ?? tags.find((t) => primary(t) === primary(language)))) ??
    find('en') ??
    tags.find((t) => primary(t) === 'en') ??
    tags[0]!;
  return byTag[chosen] ?? null;
}

const ELLIPSIS = '…';

function cut(text: string, chars: number): string {
  const points = [...text];
  return points.length <= chars ? text : `${points.slice(0, Math.max(0, chars - 1)).join('')}${ELLIPSIS}`;
}

/**
 * Shortens the body (then the title) until `encode(message)` is at most `limit` bytes. The ids are
 * never cut: they are what the app opens.
 */
export function fitMessage(message: PushMessage, limit: number, encode: (m: PushMessage) => string): PushMessage {
  const size = (m: PushMessage) => Buffer.byteLength(encode(m));
  if (size(message) <= limit) return message;
  let fitted = message;
  for (const field of ['body', 'title'] as const) {
    const text = fitted[field];
    if (!text) continue;
    // halve until it fits, then grow back by binary search: a few encodes even for long text
    let low = 0;
    let high = [...text].length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (size({ ...fitted, [field]: mid === 0 ? '' : cut(text, mid) }) <= limit) low = mid;
      else high = mid - 1;
    }
    fitted = { ...fitted, [field]: low === 0 ? null : cut(text, low) };
    if (size(fitted) <= limit) return fitted;
  }
  return fitted;
}
