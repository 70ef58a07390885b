// The language a visitor writes in, told offline by tinyld (its default build: about 60 languages,
// ~7.5 MiB of heap once loaded, tens of microseconds a message; loaded by the first message it
// reads, so a process that never sees a visitor message does not carry it). Short or mixed text
// ("ok", "thanks!", a name) is often unclear: only a detection the library is sure of counts, and
// an unclear message leaves the conversation's language as it was.
import { onFirstUse } from '../../app/on-first-use.ts';
import { isLanguageTag } from '../../app/localized-text.ts';

const tinyld = onFirstUse<typeof import('tinyld')>('tinyld');

/** tinyld's accuracy (0-1) from which a detection counts: clear sentences score 1, guesses on a word or two well under 0.5 */
export const MIN_DETECTION_ACCURACY = 0.5;
/** text read for a detection: the start of a long message tells its language as well as all of it */
const MAX_DETECTED_CHARACTERS = 2_000;

export interface DetectedLanguage {
  /** ISO 639-1 (a BCP-47 primary language subtag), e.g. "de" */
  language: string;
  /** 0-1 */
  accuracy: number;
}

/** The language of `text` when the detector is sure of it, else null. */
export function detectLanguage(text: string): DetectedLanguage | null {
  const sample = text.slice(0, MAX_DETECTED_CHARACTERS);
  if (sample.trim() === '') return null;
  const [best] = tinyld().detectAll(sample);
  if (!best || best.accuracy < MIN_DETECTION_ACCURACY || !isLanguageTag(best.lang)) return null;
  return { language: best.lang.toLowerCase(), accuracy: best.accuracy };
}

/** "pt-BR" → "pt": what detection can compare (it tells languages, not regions). */
export function primaryLanguage(tag: string): string {
  return tag.split('-')[0]!.toLowerCase();
}

/** The language's English name for the model's instructions ("pt-BR" → "Brazilian Portuguese"), or the tag itself. */
export function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** A well-formed BCP-47 tag the platform's Intl knows, in its canonical case ("PT-br" → "pt-BR"), or null. */
export function canonicalLanguageTag(tag: string): string | null {
  if (!isLanguageTag(tag)) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}
