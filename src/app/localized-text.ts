// Localized text (Document 1 §1.6): a plain string or { <language_tag>: <string> }.
import { z } from 'zod';

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export const localizedTextSchema = z.union([
  z.string().min(1, 'must not be empty').max(500),
  z
    .record(
      z.string().regex(LANGUAGE_TAG, 'keys must be language tags such as "en" or "pt-BR"'),
      z.string().min(1).max(500),
    )
    .refine((o) => Object.keys(o).length > 0 && Object.keys(o).length <= 50, 'give between 1 and 50 languages'),
]);

export type LocalizedText = z.infer<typeof localizedTextSchema>;

export function isLanguageTag(value: string): boolean {
  return LANGUAGE_TAG.test(value);
}
