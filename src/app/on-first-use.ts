// Packages that only some requests or jobs need (outbound HTTP, SMTP, mail parsing, phone numbers,
// rich-text sanitizing, images, push notifications, website import, QR codes) are loaded by their
// first use, not by every process that starts: together they hold 30–40 MiB of a server's memory,
// which one that never sends a webhook, reads a bounce or resizes an image does not need to carry.
// test/app/libraries-on-first-use.test.ts checks that starting loads none of them.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `specifier`'s module, loaded (synchronously, once) by the first call. */
export function onFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}

/** undici: webhook attempts and push notifications */
export const undici = onFirstUse<typeof import('undici')>('undici');

/** libphonenumber-js with its full metadata: PHONE_NUMBER values and their default country */
export const phoneNumbers = onFirstUse<typeof import('libphonenumber-js/max')>('libphonenumber-js/max');

/** sharp with libvips (about 15 MiB resident once loaded): image uploads' inspection and variants, QR codes with a logo */
export const sharp = onFirstUse<typeof import('sharp').default>('sharp');

/** web-push: sending push notifications and making VAPID keys */
export const webPush = onFirstUse<typeof import('web-push')>('web-push');
