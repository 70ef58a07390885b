// DOMPurify needs a DOM, which jsdom supplies. jsdom is large (about 700 modules, 0.7 s to load and
// tens of MiB resident), and most processes never sanitize anything: it is loaded by the first
// purifier made, not when the platform starts.
import { createRequire } from 'node:module';
import type { DOMPurify } from 'dompurify';
import type { JSDOM } from 'jsdom';

const load = createRequire(import.meta.url);

export interface Purifier {
  window: JSDOM['window'];
  purify: DOMPurify;
}

/** A DOMPurify of its own (hooks are per instance) on a fresh jsdom window. */
export function createPurifier(): Purifier {
  const { JSDOM: Dom } = load('jsdom') as typeof import('jsdom');
  const createDOMPurify = load('dompurify') as typeof import('dompurify').default;
  const { window } = new Dom('');
  return { window, purify: createDOMPurify(window) };
}
