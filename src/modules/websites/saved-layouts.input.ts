// Bodies of the saved-layout routes (docs/api/websites.md "Saved layouts"): 400 VALIDATION_ERROR
// naming the field. `contentJson` is a design fragment, `{ components, styles }`, checked with the
// rules of a page design (design-document.ts), and it may not hold a synced-layout reference: a
// layout is one level deep.
import { z } from 'zod';
import type { ErrorDetail } from '../../app/errors.ts';
import { type DesignDocument, parseDesign, walkComponents } from './design-document.ts';
import { isSyncedLayoutReference } from './synced-layout.ts';

export const SAVED_LAYOUT_LIMITS = { name: 200, category: 100, description: 2000, perSite: 500 } as const;
export const DESIGN_FORMATS = ['GRAPESJS_WEB', 'GRAPESJS_EMAIL'] as const;
export const SYNC_MODES = ['SNAPSHOT', 'SYNCED'] as const;

const name = z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(SAVED_LAYOUT_LIMITS.name, `at most ${SAVED_LAYOUT_LIMITS.name} characters`);
const category = z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(SAVED_LAYOUT_LIMITS.category, `at most ${SAVED_LAYOUT_LIMITS.category} characters`);
const description = z.string({ message: 'must be a string' }).trim().max(SAVED_LAYOUT_LIMITS.description, `at most ${SAVED_LAYOUT_LIMITS.description} characters`).nullable().optional();
/** checked as a design by parseLayoutContent; here only that it is an object */
const contentJson = z.record(z.string(), z.unknown(), { message: 'must be a design fragment { components, styles }' });

export const createSavedLayoutInput = z.strictObject({
  name,
  category,
  contentJson,
  description,
  designFormat: z.enum(DESIGN_FORMATS, { message: 'must be GRAPESJS_WEB or GRAPESJS_EMAIL' }).optional(),
  syncMode: z.enum(SYNC_MODES, { message: 'must be SNAPSHOT or SYNCED' }).optional(),
});
export type CreateSavedLayoutInput = z.infer<typeof createSavedLayoutInput>;

export const updateSavedLayoutInput = z.strictObject({ name: name.optional(), category: category.optional(), contentJson: contentJson.optional(), description });
export type UpdateSavedLayoutInput = z.infer<typeof updateSavedLayoutInput>;

/** A layout's content checked as a design (ids given where missing), or the details naming `contentJson.…`. */
export function parseLayoutContent(value: unknown, field = 'contentJson'): { content: DesignDocument; details: ErrorDetail[] } {
  const { design, details } = parseDesign(value, field);
  if (details.length) return { content: design, details };
  if (design.components.length === 0) return { content: design, details: [{ field: `${field}.components`, message: 'a layout holds at least one component' }] };
  walkComponents(design.components, (c, at) => {
    if (isSyncedLayoutReference(c)) details.push({ field: `${field}.${at}.type`, message: 'a layout cannot hold another synced layout' });
  });
  return { content: design, details };
}

export const SAVED_LAYOUT_EXAMPLE = {
  name: 'Donate call-to-action',
  category: 'call-to-action',
  description: 'A short appeal with a donate button',
  designFormat: 'GRAPESJS_WEB',
  syncMode: 'SYNCED',
  contentJson: {
    components: [
      {
        tagName: 'section',
        attributes: { id: 'donate-cta', 'aria-labelledby': 'donate-cta-title' },
        classes: ['cta'],
        components: [
          { tagName: 'h2', attributes: { id: 'donate-cta-title' }, components: [{ type: 'textnode', content: 'Help us plant 100 trees' }] },
          { type: 'link', tagName: 'a', attributes: { id: 'donate-cta-link', href: '/donate' }, classes: ['cta__button'], components: [{ type: 'textnode', content: 'Donate' }] },
        ],
      },
    ],
    styles: [{ selectors: ['cta'], style: { padding: '48px 16px', 'background-color': '#f5f1e8', color: '#1f2328' } }],
  },
};
