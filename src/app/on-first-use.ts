// Packages that only some requests or jobs need (outbound HTTP, SMTP, mail parsing, phone numbers,
// rich-text sanitizing) are loaded by their first use, not by every process that starts: together
// they hold 15–20 MiB of a server's memory, which one that never sends a webhook, reads a bounce or
// stores a phone number does not need to carry.
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
