// Bodies of the collection administration routes (docs/api/data-collections.md "Collection
// administration"): admin-detail, field display overrides, field descriptions, SMART membership
// previews and import tokens. The REST routes validate with these same schemas, so both faces
// refuse the same bodies with details naming the same fields.
import { z } from 'zod';
import { localizedTextSchema } from '../../app/localized-text.ts';
import { simplyIdPattern } from '../../app/ids.ts';
import { dataFieldId, MAX_FORMULA_LENGTH } from '../../kernel/index.ts';
import { ARCHETYPES, COLLECTION_TYPES, MAX_FIELDS_PER_COLLECTION } from './collections.input.ts';

const localized = localizedTextSchema.refine(
  (v) => (typeof v === 'string' ? v.trim() !== '' : Object.values(v).every((s) => s.trim() !== '')),
  'must not be blank',
);

const fieldId = z.string().regex(dataFieldId.pattern, 'must be a data field simplyId (fld-XXXX-XXXX-XXXX)');
const collectionId = z.string().regex(simplyIdPattern(), 'must be a collection simplyId (XXXX-XXXX-XXXX)');

/** Refuses a second entry naming the same field (details name `<list>.<i>.dataFieldSimplyId`). */
function uniqueFields<T extends { dataFieldSimplyId: string }>(list: readonly T[], ctx: z.RefinementCtx, path: string): void {
  const seen = new Set<string>();
  list.forEach((entry, i) => {
    if (seen.has(entry.dataFieldSimplyId)) ctx.addIssue({ code: 'custom', path: [path, i, 'dataFieldSimplyId'], message: 'is listed more than once' });
    seen.add(entry.dataFieldSimplyId);
  });
}

// ---------------------------------------------------------------------------------------------
// PUT …/admin-detail: the collection's own settings, every key given (null clears)

export const adminDetailInput = z
  .object({
    name: localized,
    singularName: localized.nullable(),
    pluralName: localized.nullable(),
    archetype: z.enum(ARCHETYPES).nullable(),
    // fixed at creation: accepted only when it is the collection's type
    type: z.enum(COLLECTION_TYPES).optional(),
    parentDataCollectionSimplyId: collectionId.nullable(),
    dataRecordCalculatedNameFormula: z.string().max(MAX_FORMULA_LENGTH, `at most ${MAX_FORMULA_LENGTH} characters`).nullable(),
    // SMART: [{ field, operator, value }] over the source's fields; other types: null
    filterCriteria: z.unknown().refine((v) => v !== undefined, 'is required (null for a collection that is not SMART)'),
    // the updatedAt the screen read: a collection changed since is a 409, nothing written
    expectedUpdatedAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp (the updatedAt you read)' }).optional(),
  })
  .strict();

export type AdminDetailInput = z.output<typeof adminDetailInput>;

// ---------------------------------------------------------------------------------------------
// PUT …/field-display-overrides: the whole set of the collection's display overrides

export const FIELD_WIDTHS = ['NARROW', 'MEDIUM', 'WIDE', 'FULL'] as const;
export const MAX_DISPLAY_POSITION = 9999;

export const displayOverride = z
  .object({
    dataFieldSimplyId: fieldId,
    label: localized.nullable().optional(),
    helpText: localized.nullable().optional(),
    placeholder: localized.nullable().optional(),
    hidden: z.boolean().optional(),
    width: z.enum(FIELD_WIDTHS, { message: `must be one of ${FIELD_WIDTHS.join(', ')}` }).nullable().optional(),
    position: z.int().min(0, 'must be 0 or more').max(MAX_DISPLAY_POSITION, `at most ${MAX_DISPLAY_POSITION}`).nullable().optional(),
  })
  .strict();

export type DisplayOverride = z.output<typeof displayOverride>;

export const fieldDisplayOverridesInput = z
  .object({
    overrides: z.array(displayOverride).max(MAX_FIELDS_PER_COLLECTION, `at most ${MAX_FIELDS_PER_COLLECTION} overrides`),
  })
  .strict()
  .superRefine((body, ctx) => uniqueFields(body.overrides, ctx, 'overrides'));

/** What is stored per field: only the settings given (never nulls). */
export interface DisplaySettings {
  label?: unknown;
  helpText?: unknown;
  placeholder?: unknown;
  hidden?: boolean;
  width?: (typeof FIELD_WIDTHS)[number];
  position?: number;
}

export function storedDisplay(o: DisplayOverride): DisplaySettings {
  const out: DisplaySettings = {};
  if (o.label != null) out.label = o.label;
  if (o.helpText != null) out.helpText = o.helpText;
  if (o.placeholder != null) out.placeholder = o.placeholder;
  if (o.hidden === true) out.hidden = true;
  if (o.width != null) out.width = o.width;
  if (o.position != null) out.position = o.position;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Field descriptions

/** fields one generation describes at most (one model step) */
export const MAX_DESCRIBED_FIELDS = 100;
export const MAX_DESCRIPTION_LENGTH = 500;

export const generateDescriptionsInput = z
  .object({
    dataFieldSimplyIds: z.array(fieldId).min(1, 'list at least one field').max(MAX_DESCRIBED_FIELDS, `at most ${MAX_DESCRIBED_FIELDS} fields`).optional(),
    language: z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as "en" or "pt-BR"').max(35).default('en'),
    onlyMissing: z.boolean().default(false),
  })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.dataFieldSimplyIds?.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: ['dataFieldSimplyIds', i], message: 'is listed more than once' });
      seen.add(id);
    });
  });

export type GenerateDescriptionsInput = z.output<typeof generateDescriptionsInput>;

const description = z.union([
  z.string().trim().min(1, 'must not be blank').max(MAX_DESCRIPTION_LENGTH, `at most ${MAX_DESCRIPTION_LENGTH} characters`),
  localized,
]);

export const applyDescriptionsInput = z
  .object({
    descriptions: z
      .array(z.object({ dataFieldSimplyId: fieldId, description: description.nullable() }).strict())
      .min(1, 'list at least one approved description')
      .max(MAX_FIELDS_PER_COLLECTION, `at most ${MAX_FIELDS_PER_COLLECTION} descriptions`),
  })
  .strict()
  .superRefine((body, ctx) => uniqueFields(body.descriptions, ctx, 'descriptions'));

export type ApplyDescriptionsInput = z.output<typeof applyDescriptionsInput>;

// ---------------------------------------------------------------------------------------------
// POST …/preview-smart-membership

export const MAX_PREVIEW_SAMPLE = 50;

export const previewMembershipInput = z
  .object({
    // absent: the SMART collection's current criteria (a collection that is not SMART: every record)
    filterCriteria: z.unknown().optional(),
    sampleSize: z.int().min(0, 'must be 0 or more').max(MAX_PREVIEW_SAMPLE, `at most ${MAX_PREVIEW_SAMPLE}`).default(10),
  })
  .strict();

export type PreviewMembershipInput = z.output<typeof previewMembershipInput>;

// ---------------------------------------------------------------------------------------------
// POST …/import-token

export const IMPORT_TOKEN_PREFIX = 'svc_imp_';
export const DEFAULT_IMPORT_TOKEN_MINUTES = 15;
export const MAX_IMPORT_TOKEN_MINUTES = 60;

export const importTokenInput = z
  .object({
    expiresInMinutes: z
      .int()
      .min(1, 'must be at least 1')
      .max(MAX_IMPORT_TOKEN_MINUTES, `at most ${MAX_IMPORT_TOKEN_MINUTES}`)
      .default(DEFAULT_IMPORT_TOKEN_MINUTES),
  })
  .strict();
