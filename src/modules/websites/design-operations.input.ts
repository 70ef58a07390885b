// The design patch language (docs/api/websites.md "Design operations"): PATCH …/design takes
// `{ operations, summary?, baseRevision? }`, each operation addressing components by their id
// (`attributes.id`). The shapes are checked here; whether each operation fits the current draft
// (the id exists, a move does not go into itself…) is checked by design-patch.ts.
import { z } from 'zod';

export const PATCH_LIMITS = { operations: 200, summary: 500 } as const;

const componentId = z.string({ message: 'must be a component id' }).regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be a component id (1-64 letters, digits, _ or -, starting with a letter)');
const parentId = componentId.nullable();
const index = z.number({ message: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more');
const component = z.record(z.string(), z.unknown(), { message: 'must be a component object' });
const value = z.string().max(10_000);
const selectors = z.array(z.string().min(1).max(500), { message: 'must be an array of selectors' }).min(1, 'must name at least one selector').max(20);

export const designOperation = z.discriminatedUnion(
  'op',
  [
    /** adds a component (with its children) under parentId (null: the top level) at index (default: last) */
    z.strictObject({ op: z.literal('insert'), parentId, index: index.optional(), component }),
    /** moves a component (with its children) under parentId at index (default: last) */
    z.strictObject({ op: z.literal('move'), id: componentId, parentId, index: index.optional() }),
    /** removes a component and its children */
    z.strictObject({ op: z.literal('remove'), id: componentId }),
    /** replaces a component and its children with another; it keeps its id unless the new one names its own */
    z.strictObject({ op: z.literal('replace'), id: componentId, component }),
    /** sets attributes; null removes one (the id cannot be changed) */
    z.strictObject({ op: z.literal('setAttributes'), id: componentId, attributes: z.record(z.string(), z.union([value, z.number(), z.boolean(), z.null()])) }),
    /** sets the component's text: its children become one text node (plain text, never markup) */
    z.strictObject({ op: z.literal('setText'), id: componentId, text: z.string().max(100_000) }),
    /** sets inline style properties; null removes one */
    z.strictObject({ op: z.literal('setStyle'), id: componentId, style: z.record(z.string().max(100), z.union([value, z.null()])) }),
    /** replaces the component's classes */
    z.strictObject({ op: z.literal('setClasses'), id: componentId, classes: z.array(z.string().regex(/^[A-Za-z_-][A-Za-z0-9_-]{0,99}$/, 'must be a class name')).max(50) }),
    /** sets properties of the CSS rule for selectors (+ mediaText, state), creating it; null removes a property, and a rule left empty goes */
    z.strictObject({ op: z.literal('setRule'), selectors, mediaText: z.string().max(500).optional(), state: z.string().max(60).optional(), style: z.record(z.string().max(100), z.union([value, z.null()])) }),
    /** removes the CSS rule for selectors (+ mediaText, state) */
    z.strictObject({ op: z.literal('removeRule'), selectors, mediaText: z.string().max(500).optional(), state: z.string().max(60).optional() }),
    /** puts a saved layout of the site under parentId at index: a copy of it (SNAPSHOT) or a reference that follows it (SYNCED); synced-layout.ts */
    z.strictObject({ op: z.literal('insertLayout'), parentId, index: index.optional(), savedLayoutSimplyId: z.string({ message: 'must be a saved layout simplyId' }).regex(/^wsl-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a saved layout simplyId (wsl-XXXX-XXXX-XXXX)') }),
  ],
  { message: 'op must be one of insert, move, remove, replace, setAttributes, setText, setStyle, setClasses, setRule, removeRule, insertLayout' },
);
export type DesignOperation = z.infer<typeof designOperation>;

export const patchDesignInput = z.strictObject({
  operations: z.array(designOperation, { message: 'must be an array of operations' }).min(1, 'must hold at least one operation').max(PATCH_LIMITS.operations, `at most ${PATCH_LIMITS.operations} operations`),
  summary: z.string().trim().max(PATCH_LIMITS.summary, `at most ${PATCH_LIMITS.summary} characters`).optional(),
  /** the draftRevision the operations were written against; when given and the draft has moved on: 409 */
  baseRevision: z.number().int().min(1).optional(),
});
export type PatchDesignInput = z.infer<typeof patchDesignInput>;

/** One working example of each operation kind, for the reference page (the REST table's example). */
export const PATCH_EXAMPLE = {
  summary: 'New hero section',
  baseRevision: 7,
  operations: [
    { op: 'insert', parentId: null, index: 0, component: { tagName: 'section', attributes: { id: 'hero' }, classes: ['hero'], components: [{ tagName: 'h1', attributes: { id: 'hero-title' }, components: [{ type: 'textnode', content: 'Welcome' }] }] } },
    { op: 'setText', id: 'hero-title', text: 'Welcome to the park' },
    { op: 'setAttributes', id: 'hero', attributes: { 'aria-label': 'Introduction', title: null } },
    { op: 'setStyle', id: 'hero', style: { 'padding': '48px 16px', 'background-color': '#f5f1e8' } },
    { op: 'setClasses', id: 'hero', classes: ['hero', 'hero--wide'] },
    { op: 'insert', parentId: 'hero', component: { type: 'link', tagName: 'a', attributes: { id: 'hero-cta', href: '/donate' }, components: [{ type: 'textnode', content: 'Donate' }] } },
    { op: 'move', id: 'hero-cta', parentId: 'hero', index: 1 },
    { op: 'replace', id: 'hero-cta', component: { type: 'link', tagName: 'a', attributes: { href: '/volunteer' }, components: [{ type: 'textnode', content: 'Volunteer' }] } },
    { op: 'setRule', selectors: ['.hero'], mediaText: '(max-width: 600px)', style: { padding: '24px 8px' } },
    { op: 'removeRule', selectors: ['.old-banner'] },
    { op: 'remove', id: 'old-banner' },
    { op: 'insertLayout', parentId: null, savedLayoutSimplyId: 'wsl-AB23-CD45-EF67' },
  ],
};
