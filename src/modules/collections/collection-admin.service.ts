// Collection administration for admin screens (privileged; docs/api/data-collections.md
// "Collection administration"): the whole configuration in one read and one write, per-field
// display overrides, the calculated-relationship recalculation, and a preview of SMART membership.
// Display overrides and descriptions describe how screens show a field; they are not the schema,
// so they record no TeamSchemaVersion, but they are written under the same team lock as schema
// changes (a field removed meanwhile cannot be half-described).
import { Prisma } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { ConflictError, type ErrorDetail, ValidationError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { parseInput } from '../../app/validate.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { advisoryLock } from '../../db/advisory-locks.ts';
import {
  checkCriteria,
  type CollectionAccess,
  type CollectionDefinition,
  countScannedRecords,
  type FieldDefinition,
  findCollection,
  loadSchemaTx,
  normalizeFilters,
  scanRecords,
  type TeamSchema,
  throwIfDetails,
} from '../../kernel/index.ts';
import { schemaWrite } from '../team-schema/index.ts';
import { adminCollection, afterSettingChanges, applySettingChanges, freshAccess } from './collections.service.ts';
import { textLabel } from './fields.service.ts';
import { adminDetailInput, type DisplaySettings, fieldDisplayOverridesInput, previewMembershipInput, storedDisplay } from './collection-admin.input.ts';

export interface AdminField {
  field: FieldDefinition;
  /** the field is the collection's own (false: a SMART collection showing its source's field) */
  own: boolean;
  display: DisplaySettings;
  description: unknown;
}

export interface AdminDetail {
  access: CollectionAccess;
  fields: AdminField[];
}

/** Runs `work` under the team's schema lock (the one schemaWrite takes), without recording a version. */
export async function underSchemaLock<T>(ctx: RequestContext, work: (tx: Tx, schema: TeamSchema) => Promise<T>): Promise<T> {
  const team = requireTeam(ctx);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const lock = advisoryLock('schemaVersions', String(team.id));
    await tx.$executeRawUnsafe(lock.text, ...lock.values);
    return work(tx, await loadSchemaTx(tx, team.id));
  });
}

/** The admin detail of a collection: every field (whatever the caller's data role), with its display settings and description. */
export async function adminDetailOf(ctx: RequestContext, access: CollectionAccess): Promise<AdminDetail> {
  const { collection, schema } = access;
  const source = schema.fieldSource(collection);
  const rows = await ctx.services.prisma.dataFieldAdminSetting.findMany({
    where: { teamId: schema.teamId, collectionId: { in: [...new Set([collection.id, source.id])] } },
    select: { collectionId: true, fieldId: true, display: true, description: true },
  });
  const display = new Map<bigint, DisplaySettings>();
  const descriptions = new Map<bigint, unknown>();
  for (const row of rows) {
    if (row.collectionId === collection.id) display.set(row.fieldId, (row.display ?? {}) as DisplaySettings);
    if (row.collectionId === source.id && row.description !== null) descriptions.set(row.fieldId, row.description);
  }
  return {
    access,
    fields: access.fields.map((field) => ({
      field,
      own: field.collectionId === collection.id,
      display: display.get(field.id) ?? {},
      description: descriptions.get(field.id) ?? null,
    })),
  };
}

async function freshDetail(ctx: RequestContext, teamId: bigint, collectionId: bigint): Promise<AdminDetail> {
  return adminDetailOf(ctx, await freshAccess(ctx, teamId, collectionId));
}

/** GET …/admin-detail */
export async function readAdminDetail(ctx: RequestContext, simplyId: string): Promise<AdminDetail> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const collection = await adminCollection(ctx, simplyId);
  return freshDetail(ctx, team.id, collection.id);
}

/** PUT …/admin-detail: names, archetype, formula, criteria and parent in one change (one schema version). */
export async function replaceAdminDetail(ctx: RequestContext, simplyId: string, raw: unknown): Promise<AdminDetail> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const input = parseInput(adminDetailInput, raw, 'Invalid collection configuration');
  const outcome = await schemaWrite(ctx, `collection configured: ${textLabel(input.name)} (${simplyId})`, async (tx) => {
    const schema = await loadSchemaTx(tx, team.id);
    const collection = findCollection(schema, simplyId);
    if (input.expectedUpdatedAt !== undefined && new Date(input.expectedUpdatedAt).getTime() !== collection.updatedAt.getTime()) {
      throw new ConflictError(`Collection ${simplyId} was changed since ${input.expectedUpdatedAt} (now ${collection.updatedAt.toISOString()}): read it again`);
    }
    const smart = collection.type === 'SMART';
    const details: ErrorDetail[] = [];
    if (input.type !== undefined && input.type !== collection.type) details.push({ field: 'type', message: `is fixed at creation (this collection is ${collection.type})` });
    const data: Prisma.DataCollectionUncheckedUpdateInput = {
      name: input.name as Prisma.InputJsonValue,
      singularName: input.singularName === null ? Prisma.DbNull : (input.singularName as Prisma.InputJsonValue),
      pluralName: input.pluralName === null ? Prisma.DbNull : (input.pluralName as Prisma.InputJsonValue),
    };
    if (!smart && input.filterCriteria !== null) details.push({ field: 'filterCriteria', message: 'only SMART collections take filterCriteria: send null' });
    // every key is sent; a collection that is not SMART has no criteria to change
    const effects = applySettingChanges(schema, collection, { ...input, filterCriteria: smart ? input.filterCriteria : undefined }, data, details);
    throwIfDetails('Invalid collection configuration', details);
    await tx.dataCollection.update({ where: { id: collection.id }, data });
    return { id: collection.id, ...effects };
  });
  await afterSettingChanges(ctx, team.id, outcome);
  return freshDetail(ctx, team.id, outcome.id);
}

/** PUT …/field-display-overrides: the collection's whole set; fields not listed have none afterwards. */
export async function replaceFieldDisplayOverrides(ctx: RequestContext, simplyId: string, raw: unknown): Promise<AdminDetail> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const input = parseInput(fieldDisplayOverridesInput, raw, 'Invalid field display overrides');
  const id = await underSchemaLock(ctx, async (tx, schema) => {
    const collection = findCollection(schema, simplyId);
    const fields = new Map(schema.fieldsOf(collection).map((f) => [f.dataFieldSimplyId, f]));
    const details: ErrorDetail[] = [];
    input.overrides.forEach((o, i) => {
      if (!fields.has(o.dataFieldSimplyId)) details.push({ field: `overrides.${i}.dataFieldSimplyId`, message: 'is not a field of this collection' });
    });
    throwIfDetails('Invalid field display overrides', details);
    const wanted = new Map(input.overrides.map((o) => [fields.get(o.dataFieldSimplyId)!.id, storedDisplay(o)]));
    // fields not listed: no overrides (a row that only held them goes; a description stays)
    await tx.dataFieldAdminSetting.updateMany({ where: { teamId: team.id, collectionId: collection.id, fieldId: { notIn: [...wanted.keys()] } }, data: { display: {} } });
    for (const [fieldId, display] of wanted) {
      if (Object.keys(display).length === 0) {
        await tx.dataFieldAdminSetting.updateMany({ where: { teamId: team.id, collectionId: collection.id, fieldId }, data: { display: {} } });
        continue;
      }
      await tx.dataFieldAdminSetting.upsert({
        where: { teamId_collectionId_fieldId: { teamId: team.id, collectionId: collection.id, fieldId } },
        create: { teamId: team.id, collectionId: collection.id, fieldId, display: display as Prisma.InputJsonValue },
        update: { display: display as Prisma.InputJsonValue },
      });
    }
    await tx.dataFieldAdminSetting.deleteMany({ where: { teamId: team.id, collectionId: collection.id, description: { equals: Prisma.DbNull }, display: { equals: {} } } });
    return collection.id;
  });
  return freshDetail(ctx, team.id, id);
}

export interface RelationshipRecalculation {
  dataCollectionSimplyId: string;
  calculatedFieldCount: number;
  updatedRecordCount: number;
}

/**
 * POST …/recalculate-calculated-relationship-fields. No data type computes its value from related
 * records (relationship fields hold the ids they were given), so there is nothing to recompute:
 * the collection is checked and the answer says so with zero counts.
 */
export async function recalculateCalculatedRelationshipFields(ctx: RequestContext, simplyId: string): Promise<RelationshipRecalculation> {
  requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const collection = await adminCollection(ctx, simplyId);
  return { dataCollectionSimplyId: collection.simplyId, calculatedFieldCount: 0, updatedRecordCount: 0 };
}

export interface MembershipPreview {
  dataCollectionSimplyId: string;
  sourceDataCollectionSimplyId: string;
  filterCriteria: unknown[];
  sourceRecordCount: number;
  matchingRecordCount: number;
  currentMemberCount: number | null;
  wouldAddCount: number | null;
  wouldRemoveCount: number | null;
  sample: { dataRecordSimplyId: string; calculatedName: string | null }[];
}

/** The collection whose records the criteria select: a SMART collection's source, else the collection itself. */
function previewSource(schema: TeamSchema, collection: CollectionDefinition): CollectionDefinition {
  return collection.type === 'SMART' ? schema.fieldSource(collection) : collection;
}

/**
 * POST …/preview-smart-membership: what criteria (given, or the SMART collection's own) would
 * select, counted and sampled, without writing anything. For a SMART collection it also compares
 * with its current members (the ones resync-smart-membership would keep, add and remove).
 */
export async function previewSmartMembership(ctx: RequestContext, simplyId: string, raw: unknown): Promise<MembershipPreview> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const input = parseInput(previewMembershipInput, raw ?? {}, 'Invalid membership preview');
  const schema = await ctx.services.schemas.get(team.id);
  const collection = findCollection(schema, simplyId);
  const source = previewSource(schema, collection);
  const sourceFields = schema.fieldsOf(source);
  const details: ErrorDetail[] = [];
  const given = input.filterCriteria !== undefined && input.filterCriteria !== null;
  const criteria = given ? checkCriteria(sourceFields, input.filterCriteria, details) : collection.type === 'SMART' ? ((collection.filterCriteria ?? []) as unknown[]) : [];
  throwIfDetails('Invalid membership preview', details);
  const normalized = normalizeFilters(sourceFields, criteria);
  if (!normalized.ok) throw new ValidationError('The stored criteria no longer fit the source collection; send filterCriteria', normalized.details);
  const fieldsById = new Map(sourceFields.map((f) => [f.dataFieldSimplyId, f]));
  const pool = ctx.services.pool;
  const scanOf = (collectionId: bigint, filters = normalized.filters) => ({ teamId: team.id, collectionId, filters, fieldsById });
  const [sourceRecordCount, matchingRecordCount, sample] = await Promise.all([
    countScannedRecords(pool, scanOf(source.id, [])),
    countScannedRecords(pool, scanOf(source.id)),
    input.sampleSize > 0 ? scanRecords(pool, scanOf(source.id), { limit: input.sampleSize }) : Promise.resolve([]),
  ]);
  let currentMemberCount: number | null = null;
  let wouldAddCount: number | null = null;
  let wouldRemoveCount: number | null = null;
  if (collection.type === 'SMART') {
    // members that still match: the filters read record keys, whichever collection lists the record
    const [current, staying] = await Promise.all([countScannedRecords(pool, scanOf(collection.id, [])), countScannedRecords(pool, scanOf(collection.id))]);
    currentMemberCount = current;
    wouldAddCount = Math.max(0, matchingRecordCount - staying);
    wouldRemoveCount = Math.max(0, current - staying);
  }
  return {
    dataCollectionSimplyId: collection.simplyId,
    sourceDataCollectionSimplyId: source.simplyId,
    filterCriteria: criteria,
    sourceRecordCount,
    matchingRecordCount,
    currentMemberCount,
    wouldAddCount,
    wouldRemoveCount,
    sample: sample.map((r) => ({ dataRecordSimplyId: r.simplyId, calculatedName: r.calculatedName ?? null })),
  };
}

