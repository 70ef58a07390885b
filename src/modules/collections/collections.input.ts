// Bodies of schema administration (docs/api/data-collections.md), validated with zod at the
// service boundary; what zod cannot know (other fields, the parent, the team) is checked by the
// services with the same `{ field, message }` details.
import { z } from 'zod';
import { localizedTextSchema } from '../../app/localized-text.ts';
import { simplyIdPattern } from '../../app/ids.ts';
import { DATA_TYPES, dataFieldId, isDataType, MAX_FORMULA_LENGTH } from '../../kernel/index.ts';

export const ARCHETYPES = [
  'PERSON',
  'ORGANIZATION',
  'EVENT',
  'LOCATION',
  'COMMUNICATION',
  'CASE',
  'INVOICE',
  'FINANCIAL_TRANSACTION',
  'TASK',
  'PROJECT',
  'HOUSEHOLD',
  'CAMPAIGN',
  'PARTICIPATION',
] as const;

export const COLLECTION_TYPES = ['STANDARD', 'SMART', 'CUSTOM_LIST'] as const;

/** Fields per collection (create body and every later addition). */
export const MAX_FIELDS_PER_COLLECTION = 500;
/** Depth of a parent chain (effectiveArchetype and SMART sources look at most this far up). */
export const MAX_PARENT_DEPTH = 16;

export const COLUMN_NAME = /^[a-z][a-z0-9_]{0,62}$/;
const COLUMN_NAME_MAX = 63;

const columnName = z.string().regex(COLUMN_NAME, 'must be lower snake case: a letter, then letters, digits or _ (at most 63 characters)');

const localized = localizedTextSchema.refine(
  (v) => (typeof v === 'string' ? v.trim() !== '' : Object.values(v).every((s) => s.trim() !== '')),
  'must not be blank',
);

const dataType = z.string().refine(isDataType, `must be one of ${DATA_TYPES.join(', ')}`);

const collectionId = z.string().regex(simplyIdPattern(), 'must be a collection simplyId (XXXX-XXXX-XXXX)');
const fieldId = z.string().regex(dataFieldId.pattern, 'must be a data field simplyId (fld-XXXX-XXXX-XXXX)');

const formula = z.string().max(MAX_FORMULA_LENGTH, `at most ${MAX_FORMULA_LENGTH} characters`);

export const fieldInput = z
  .object({
    title: localized,
    dataType,
    isRequired: z.boolean().default(false),
    // checked per data type by validateFieldConfig (details name fields.<i>.config.<key>)
    config: z.unknown().optional(),
    columnName: columnName.nullable().optional(),
  })
  .strict();

export type FieldInput = z.output<typeof fieldInput>;

export const createCollectionInput = z
  .object({
    name: localized,
    singularName: localized.nullable().optional(),
    pluralName: localized.nullable().optional(),
    archetype: z.enum(ARCHETYPES).nullable().optional(),
    type: z.enum(COLLECTION_TYPES).default('STANDARD'),
    parentDataCollectionSimplyId: collectionId.nullable().optional(),
    dataRecordCalculatedNameFormula: formula.nullable().optional(),
    filterCriteria: z.unknown().optional(),
    fields: z.array(fieldInput).max(MAX_FIELDS_PER_COLLECTION, `at most ${MAX_FIELDS_PER_COLLECTION} fields`).default([]),
  })
  .strict();

export type CreateCollectionInput = z.output<typeof createCollectionInput>;

export const renameCollectionInput = z
  .object({
    name: localized,
    singularName: localized.nullable().optional(),
    pluralName: localized.nullable().optional(),
  })
  .strict();

export type RenameCollectionInput = z.output<typeof renameCollectionInput>;

/** PATCH: absent = unchanged, null = cleared. */
export const updateCollectionInput = z
  .object({
    archetype: z.enum(ARCHETYPES).nullable().optional(),
    dataRecordCalculatedNameFormula: formula.nullable().optional(),
    filterCriteria: z.unknown().optional(),
    parentDataCollectionSimplyId: collectionId.nullable().optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'give at least one of archetype, dataRecordCalculatedNameFormula, filterCriteria, parentDataCollectionSimplyId');

export type UpdateCollectionInput = z.output<typeof updateCollectionInput>;

/** PATCH of a field: absent = unchanged; `config: null` resets to defaults. */
export const updateFieldInput = z
  .object({
    title: localized.optional(),
    // immutable: accepted only when equal to the current type
    dataType: z.string().optional(),
    isRequired: z.boolean().optional(),
    config: z.unknown().optional(),
    columnName: columnName.optional(),
    sortOrder: z.int().min(0, 'must be 0 or more').max(MAX_FIELDS_PER_COLLECTION * 10).optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'give at least one of title, isRequired, config, columnName, sortOrder');

export type UpdateFieldInput = z.output<typeof updateFieldInput>;

export const reorderFieldsInput = z
  .object({
    orderedFieldSimplyIds: z.array(fieldId).min(1, 'list at least one field').max(MAX_FIELDS_PER_COLLECTION),
  })
  .strict();

export const archiveCollectionInput = z.object({ isArchived: z.boolean() }).strict();

// ---------------------------------------------------------------------------------------------
// Column names

/** The text a column name is derived from: a plain title, else its `en` text, else the first. */
function titleText(title: unknown): string {
  if (typeof title === 'string') return title;
  if (title && typeof title === 'object') {
    const texts = title as Record<string, string>;
    return texts.en ?? Object.entries(texts).find(([tag]) => tag.toLowerCase().startsWith('en'))?.[1] ?? Object.values(texts)[0] ?? '';
  }
  return '';
}

/** Lower snake case ASCII from a title: accents dropped, everything else becomes `_`; a name that
 *  would not start with a letter gets `f_` (or is `field` when nothing is left). */
export function columnNameBase(title: unknown): string {
  const ascii = titleText(title)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[Ææ]/g, 'ae')
    .replace(/[Øø]/g, 'o')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  let base = ascii || 'field';
  if (!/^[a-z]/.test(base)) base = `f_${base}`;
  return base.slice(0, COLUMN_NAME_MAX).replace(/_+$/, '');
}

/** `base`, else `base_2`, `base_3`, … (shortened so the suffix fits in 63 characters); adds it to `taken`. */
export function uniqueColumnName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) {
    const suffix = `_${n}`;
    name = `${base.slice(0, COLUMN_NAME_MAX - suffix.length).replace(/_+$/, '')}${suffix}`;
  }
  taken.add(name);
  return name;
}
