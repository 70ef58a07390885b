// Field administration (privileged; docs/api/data-collections.md): add, update, reorder, remove.
// Every change goes through schemaWrite (one TeamSchemaVersion each, cache dropped on every
// instance); effects on existing records (display names) run after the commit (recompute.ts).
import { Prisma } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { ConflictError, type ErrorDetail, ValidationError } from '../../app/errors.ts';
import {
  assertOwnsFields,
  checkFieldConfig,
  type CollectionDefinition,
  criteriaFields,
  dataFieldId,
  dropFieldKeys,
  type FieldDefinition,
  findCollection,
  findOwnField,
  formulaFields,
  loadSchemaTx,
  smartOver,
  type TeamSchema,
  throwIfDetails,
} from '../../kernel/index.ts';
import { parseInput } from '../../app/validate.ts';
import { schemaWrite } from '../team-schema/index.ts';
import { columnNameBase, type FieldInput, fieldInput, MAX_FIELDS_PER_COLLECTION, reorderFieldsInput, uniqueColumnName, updateFieldInput } from './collections.input.ts';
import { refuseIfAutomationsUse, releaseFieldReferences } from './field-references.ts';
import { type Tx } from '../../app/transaction.ts';
import { renameRecordsAfterChange } from './collections.jobs.ts';

export interface FieldDraft {
  simplyId: string;
  title: unknown;
  columnName: string;
  dataType: string;
  isRequired: boolean;
  config: Record<string, unknown>;
}

/** One-line label of a localized text for version summaries. */
export function textLabel(text: unknown): string {
  if (typeof text === 'string') return text;
  if (text && typeof text === 'object') {
    const texts = text as Record<string, string>;
    return texts.en ?? Object.values(texts)[0] ?? '';
  }
  return '';
}

/**
 * New fields of a collection: configs validated (details under `path(i)`), column names checked
 * against `existing` and each other (given names first, then names derived from titles).
 * Returns the drafts and the given column names that are already taken (the caller's 409).
 */
export function draftFields(
  schema: TeamSchema,
  inputs: readonly FieldInput[],
  existing: readonly FieldDefinition[],
  details: ErrorDetail[],
  path: (i: number) => string,
  extraCollections: readonly string[] = [],
): { drafts: FieldDraft[]; duplicates: string[] } {
  const taken = new Set(existing.map((f) => f.columnName));
  const duplicates: string[] = [];
  for (const input of inputs) {
    if (!input.columnName) continue;
    if (taken.has(input.columnName)) duplicates.push(input.columnName);
    taken.add(input.columnName);
  }
  const drafts = inputs.map((input, i) => ({
    simplyId: dataFieldId.create(),
    title: input.title,
    columnName: input.columnName ?? uniqueColumnName(columnNameBase(input.title), taken),
    dataType: input.dataType,
    isRequired: input.isRequired,
    config: checkFieldConfig(schema, input.dataType, input.config, path(i), details, extraCollections),
  }));
  return { drafts, duplicates: [...new Set(duplicates)] };
}

export function columnConflict(names: string[]): ConflictError {
  return new ConflictError(`columnName already used in this collection: ${names.join(', ')}`);
}

/** Whether records' display names read `field` (a formula placeholder, or no formula at all). */
export function nameReads(collection: CollectionDefinition, field: FieldDefinition): boolean {
  const formula = collection.calculatedNameFormula;
  return formula ? formulaFields(formula, collection.ownFields).includes(field.dataFieldSimplyId) : true;
}

/** Writes sortOrder 0..n-1 in the given order (only rows whose position changes); true if any did. */
async function renumber(tx: Tx, ordered: readonly FieldDefinition[]): Promise<boolean> {
  let changed = false;
  for (const [i, f] of ordered.entries()) {
    if (f.sortOrder === i) continue;
    await tx.dataField.update({ where: { id: f.id }, data: { sortOrder: i } });
    changed = true;
  }
  return changed;
}

function sameOrder(a: readonly FieldDefinition[], b: readonly FieldDefinition[]): boolean {
  return a.length === b.length && a.every((f, i) => f.id === b[i]!.id);
}

async function afterNames(ctx: RequestContext, teamId: bigint, collectionId: bigint | null): Promise<void> {
  if (collectionId !== null) await renameRecordsAfterChange(ctx, teamId, collectionId);
}

async function freshField(ctx: RequestContext, teamId: bigint, simplyId: string): Promise<FieldDefinition> {
  const schema = await ctx.services.schemas.get(teamId);
  return schema.fieldsBySimplyId.get(simplyId)!;
}

export async function addField(ctx: RequestContext, collectionSimplyId: string, raw: unknown): Promise<FieldDefinition> {
  const team = requireTeam(ctx);
  const input = parseInput(fieldInput, raw, 'Invalid data field');
  let simplyId = '';
  await schemaWrite(ctx, () => `field added: ${textLabel(input.title)} (${simplyId}) to ${collectionSimplyId}`, async (tx) => {
    const schema = await loadSchemaTx(tx, team.id);
    const collection = findCollection(schema, collectionSimplyId);
    assertOwnsFields(collection);
    if (collection.ownFields.length >= MAX_FIELDS_PER_COLLECTION) {
      throw new ValidationError(`A collection has at most ${MAX_FIELDS_PER_COLLECTION} fields`, [{ field: 'dataFieldSimplyId', message: `the collection already has ${MAX_FIELDS_PER_COLLECTION} fields` }]);
    }
    const details: ErrorDetail[] = [];
    const { drafts, duplicates } = draftFields(schema, [input], collection.ownFields, details, () => '');
    throwIfDetails('Invalid data field', details);
    if (duplicates.length > 0) throw columnConflict(duplicates);
    const draft = drafts[0]!;
    simplyId = draft.simplyId;
    const sortOrder = collection.ownFields.reduce((max, f) => Math.max(max, f.sortOrder + 1), 0);
    await tx.dataField.create({
      data: {
        simplyId: draft.simplyId,
        teamId: team.id,
        collectionId: collection.id,
        title: draft.title as Prisma.InputJsonValue,
        columnName: draft.columnName,
        dataType: draft.dataType,
        isRequired: draft.isRequired,
        sortOrder,
        config: draft.config as Prisma.InputJsonValue,
      },
    });
  });
  return freshField(ctx, team.id, simplyId);
}

export async function updateField(ctx: RequestContext, collectionSimplyId: string, fieldSimplyId: string, raw: unknown): Promise<FieldDefinition> {
  const team = requireTeam(ctx);
  const input = parseInput(updateFieldInput, raw, 'Invalid data field');
  const recompute = await schemaWrite(ctx, `field updated: ${fieldSimplyId} in ${collectionSimplyId}`, async (tx) => {
    const schema = await loadSchemaTx(tx, team.id);
    const collection = findCollection(schema, collectionSimplyId);
    assertOwnsFields(collection);
    const field = findOwnField(collection, fieldSimplyId);
    const details: ErrorDetail[] = [];
    if (input.dataType !== undefined && input.dataType !== field.dataType) {
      details.push({ field: 'dataType', message: `cannot change (the field is ${field.dataType}); add a new field of the other type instead` });
    }
    const data: Prisma.DataFieldUpdateInput = {};
    if (input.title !== undefined) data.title = input.title as Prisma.InputJsonValue;
    if (input.isRequired !== undefined) data.isRequired = input.isRequired;
    let configChanged = false;
    if (input.config !== undefined) {
      const config = checkFieldConfig(schema, field.dataType, input.config, '', details);
      configChanged = JSON.stringify(config) !== JSON.stringify(field.config ?? {});
      if (configChanged) data.config = config as Prisma.InputJsonValue;
    }
    let formula: string | null = null;
    if (input.columnName !== undefined && input.columnName !== field.columnName) {
      if (collection.ownFields.some((f) => f.id !== field.id && f.columnName === input.columnName)) {
        throwIfDetails('Invalid data field', details);
        throw columnConflict([input.columnName]);
      }
      data.columnName = input.columnName;
      // a formula written with the old column name keeps working: it now names the field by id
      const old = collection.calculatedNameFormula;
      if (old?.includes(`{${field.columnName}}`)) formula = old.split(`{${field.columnName}}`).join(`{${field.dataFieldSimplyId}}`);
    }
    throwIfDetails('Invalid data field', details);
    await tx.dataField.update({ where: { id: field.id }, data });
    if (formula !== null) await tx.dataCollection.update({ where: { id: collection.id }, data: { calculatedNameFormula: formula } });
    let orderChanged = false;
    if (input.sortOrder !== undefined) {
      const others = collection.ownFields.filter((f) => f.id !== field.id);
      const position = Math.min(input.sortOrder, others.length);
      const ordered = [...others.slice(0, position), field, ...others.slice(position)];
      orderChanged = !sameOrder(ordered, collection.ownFields);
      await renumber(tx, ordered);
    }
    const namesChange = (configChanged && nameReads(collection, field)) || (orderChanged && !collection.calculatedNameFormula);
    return namesChange ? collection.id : null;
  });
  await afterNames(ctx, team.id, recompute);
  return freshField(ctx, team.id, fieldSimplyId);
}

/** Listed fields first, in the given order; fields not listed follow in their current order. */
export async function reorderFields(ctx: RequestContext, collectionSimplyId: string, orderedFieldSimplyIds: unknown): Promise<FieldDefinition[]> {
  const team = requireTeam(ctx);
  const input = parseInput(reorderFieldsInput, { orderedFieldSimplyIds }, 'Invalid field order');
  const outcome = await schemaWrite(ctx, `fields reordered in ${collectionSimplyId}`, async (tx) => {
    const schema = await loadSchemaTx(tx, team.id);
    const collection = findCollection(schema, collectionSimplyId);
    assertOwnsFields(collection);
    const byId = new Map(collection.ownFields.map((f) => [f.dataFieldSimplyId, f]));
    const details: ErrorDetail[] = [];
    const seen = new Set<string>();
    input.orderedFieldSimplyIds.forEach((id, i) => {
      if (seen.has(id)) details.push({ field: `orderedFieldSimplyIds.${i}`, message: `${id} appears more than once` });
      else if (!byId.has(id)) details.push({ field: `orderedFieldSimplyIds.${i}`, message: `${id} is not a field of this collection` });
      seen.add(id);
    });
    throwIfDetails('Invalid field order', details);
    const listed = input.orderedFieldSimplyIds.map((id) => byId.get(id)!);
    const ordered = [...listed, ...collection.ownFields.filter((f) => !seen.has(f.dataFieldSimplyId))];
    const changed = !sameOrder(ordered, collection.ownFields);
    await renumber(tx, ordered);
    return { collectionId: collection.id, recompute: changed && !collection.calculatedNameFormula };
  });
  await afterNames(ctx, team.id, outcome.recompute ? outcome.collectionId : null);
  const schema = await ctx.services.schemas.get(team.id);
  return schema.collectionsById.get(outcome.collectionId)!.ownFields;
}

/**
 * Removes a field definition, then its filter keys. Stored values stay in the records' `values`
 * but are no longer shown (a field never comes back: ids are not reused). 409 while the
 * display-name formula or a SMART collection's criteria read it.
 */
export async function removeField(ctx: RequestContext, collectionSimplyId: string, fieldSimplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  const outcome = await schemaWrite(ctx, `field removed: ${fieldSimplyId} from ${collectionSimplyId}`, async (tx) => {
    const schema = await loadSchemaTx(tx, team.id);
    const collection = findCollection(schema, collectionSimplyId);
    assertOwnsFields(collection);
    const field = findOwnField(collection, fieldSimplyId);
    const formula = collection.calculatedNameFormula;
    if (formula && formulaFields(formula, collection.ownFields).includes(field.dataFieldSimplyId)) {
      throw new ConflictError(`Field ${fieldSimplyId} is used by the display-name formula of ${collectionSimplyId}; change dataRecordCalculatedNameFormula first`);
    }
    const users = smartOver(schema, collection).filter((s) => criteriaFields(s).includes(field.dataFieldSimplyId));
    if (users.length > 0) {
      throw new ConflictError(`Field ${fieldSimplyId} is used by the criteria of SMART collection(s) ${users.map((s) => s.simplyId).join(', ')}; change their filterCriteria first`);
    }
    await refuseIfAutomationsUse(tx, team.id, field.dataFieldSimplyId);
    await releaseFieldReferences(tx, team.id, field, [collection.id, ...smartOver(schema, collection).map((c) => c.id)]);
    await tx.dataField.delete({ where: { id: field.id } });
    return { fieldId: field.id, recompute: formula ? null : collection.id };
  });
  // after the commit, in batches: a collection may hold millions of keys of one field
  await dropFieldKeys(ctx.services.pool, team.id, outcome.fieldId);
  await afterNames(ctx, team.id, outcome.recompute);
  return true;
}
