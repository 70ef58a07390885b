// The page a document template is laid out on (docs/api/content-templates.md "Document settings").
// Lengths are millimetres; the header and footer are HTML drawn inside the top and bottom margins.
import { z } from 'zod';

export const PAGE_SIZES = ['A4', 'LETTER'] as const;
export const ORIENTATIONS = ['PORTRAIT', 'LANDSCAPE'] as const;

/** Portrait width and height of each page size, in millimetres. */
export const PAGE_DIMENSIONS_MM: Record<(typeof PAGE_SIZES)[number], { width: number; height: number }> = {
  A4: { width: 210, height: 297 },
  LETTER: { width: 215.9, height: 279.4 },
};

export const DOCUMENT_SETTINGS_LIMITS = {
  marginMm: 100,
  headerHtml: 50_000,
  defaultMarginMm: 20,
} as const;

const margin = z
  .number({ message: 'must be a number of millimetres' })
  .min(0, 'must not be negative')
  .max(DOCUMENT_SETTINGS_LIMITS.marginMm, `must be at most ${DOCUMENT_SETTINGS_LIMITS.marginMm} mm`)
  .default(DOCUMENT_SETTINGS_LIMITS.defaultMarginMm);

const pageHtml = z
  .string()
  .max(DOCUMENT_SETTINGS_LIMITS.headerHtml, `must be at most ${DOCUMENT_SETTINGS_LIMITS.headerHtml} characters`)
  .transform((v) => (v.trim() === '' ? null : v))
  .nullable()
  .default(null);

export const documentSettingsInput = z
  .object({
    pageSize: z.enum(PAGE_SIZES, { message: `must be one of ${PAGE_SIZES.join(', ')}` }).default('A4'),
    orientation: z.enum(ORIENTATIONS, { message: `must be one of ${ORIENTATIONS.join(', ')}` }).default('PORTRAIT'),
    marginsMm: z
      .object({ top: margin, right: margin, bottom: margin, left: margin })
      .strict()
      .default({ top: 20, right: 20, bottom: 20, left: 20 }),
    headerHtml: pageHtml,
    footerHtml: pageHtml,
  })
  .strict();

export type DocumentSettings = z.output<typeof documentSettingsInput>;

/** The settings a template gets when a design needs some and none were given (a copy of a message template). */
export const DEFAULT_DOCUMENT_SETTINGS: DocumentSettings = documentSettingsInput.parse({});

/** Width and height of the page as laid out (orientation applied), in millimetres. */
export function pageDimensions(settings: DocumentSettings): { width: number; height: number } {
  const portrait = PAGE_DIMENSIONS_MM[settings.pageSize];
  return settings.orientation === 'LANDSCAPE' ? { width: portrait.height, height: portrait.width } : portrait;
}
