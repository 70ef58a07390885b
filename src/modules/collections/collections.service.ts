// Data collections (Document 1 §2.4, §4.3). Reads are standard tier: the caller sees the
// collections its data role can read, and in them the fields it can read. Administration is
// privileged (team admin or TEAM_SETTINGS edit) and goes through schemaWrite.
import { hasScope } from '../../app/auth/principal.ts';
import type { OauthScope } from '../../app/auth/oauth-scopes.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { type PageInput, pagination, type PaginationShape, parsePaging } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { type ErrorDetail, NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { assertDataSimplyId, newSimplyId } from '../../app/ids.ts';
import {
  accessTo,
  adminAccess,
  canonicalFormula,
  canReadCollection,
  checkCriteria,
  type CollectionAccess,
  type CollectionDefinition,
  dataFieldId,
  type FieldDefinition,
  findCollection,
  formulaDetails,
  loadSchemaTx,
  recomputeRecordNames,
  resyncSmartCollection,
  type TeamSchema,
  throwIfDetails,
} from '../../kernel/index.ts';
import { parseInput } from '../../app/validate.ts';
import { schemaWrite } from '../team-schema/index.ts';
import { archiveCollectionInput, createCollectionInput, MAX_PARENT_DEPTH, renameCollectionInput, updateCollectionInput } from './collections.input.ts';
import { columnConflict, draftFields, textLabel } from './fields.service.ts';
import { renameRecordsAfterChange } from './collections.jobs.ts';

// ------------------------------------------------------------------------------------------
// Reads (standard tier)

function requireScope(ctx: RequestContext, scope: OauthScope): void {
  if (!hasScope(ctx.principal, scope)) throw new PermissionDeniedError(`This token lacks the OAuth scope ${scope}`);
}

export interface ListCollectionsArgs extends PageInput {
  includeArchived?: boolean | null;
}

/** Collections the caller's data role can read (all for admins; none without a team role), oldest first. */
export async function listCollections(ctx: RequestContext, args: ListCollectionsArgs): Promise<{ nodes: CollectionAccess[]; pagination: PaginationShape }> {
  const team = requireTeam(ctx);
  requireScope(ctx, 'schema:read');
  const paging = parsePaging(args);
  const schema = await ctx.services.schemas.get(team.id);
  const visible = schema.collections.filter((c) => (args.includeArchived || !c.isArchived) && canReadCollection(ctx.principal, c));
  const nodes = visible.slice(paging.offset, paging.offset + paging.limit).map((c) => accessTo(ctx.principal, schema, c));
  return { nodes, pagination: pagination(visible.length, paging) };
}

/**
 * One collection the caller may read: malformed id 400, not in the team 404, in the team but not
 * readable by the caller's data role (or no team role at all) 403 PERMISSION_DENIED.
 */
export async function readableCollection(ctx: RequestContext, simplyId: string, scope: OauthScope = 'schema:read'): Promise<CollectionAccess> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  requireScope(ctx, scope);
  const schema = await ctx.services.schemas.get(team.id);
  const collection = schema.collectionsBySimplyId.get(simplyId);
  if (!collection) throw new NotFoundError('Data collection', simplyId);
  if (!canReadCollection(ctx.principal, collection)) {
    throw new PermissionDeniedError(`The credential's team role cannot read collection ${simplyId}`);
  }
  return accessTo(ctx.principal, schema, collection);
}

/** A field the caller may read; a field hidden by the role (NONE) is 404 like a missing one. */
export async function readableField(ctx: RequestContext, collectionSimplyId: string, fieldSimplyId: string): Promise<FieldDefinition> {
  requireTeam(ctx);
  assertDataSimplyId(collectionSimplyId, 'dataCollectionSimplyId', 'collection');
  dataFieldId.assert(fieldSimplyId, 'dataFieldSimplyId');
  const access = await readableCollection(ctx, collectionSimplyId);
  const field = access.readable.find((f) => f.dataFieldSimplyId === fieldSimplyId);
  if (!field) throw new NotFoundError('Data field', fieldSimplyId);
  return field;
}

// ------------------------------------------------------------------------------------------
// Administration (privileged)

export async function freshAccess(ctx: RequestContext, teamId: bigint, collectionId: bigint): Promise<CollectionAccess> {
  const schema = await ctx.services.schemas.get(teamId);
  return adminAccess(schema, schema.collectionsById.get(collectionId)!);
}

function ancestorsOf(schema: TeamSchema, c: CollectionDefinition): CollectionDefinition[] {
  const out: CollectionDefinition[] = [];
  let current = c.parentId === null ? undefined : schema.collectionsById.get(c.parentId);
  while (current && out.length <= MAX_PARENT_DEPTH + 1) {
    out.push(current);
    current = current.parentId === null ? undefined : schema.collectionsById.get(current.parentId);
  }
  return out;
}

/** Levels of children below `c` (0: none). */
function heightOf(schema: TeamSchema, c: CollectionDefinition, depth = 0): number {
  if (depth > MAX_PARENT_DEPTH) return depth;
  const children = schema.collections.filter((x) => x.parentId === c.id);
  return children.reduce((h, child) => Math.max(h, 1 + heightOf(schema, child, depth + 1)), 0);
}

/** A new parent for `child` (null: a new collection): no cycle, and the chain stays within MAX_PARENT_DEPTH. */
export function checkParent(schema: TeamSchema, parent: CollectionDefinition, child: CollectionDefinition | null, details: ErrorDetail[]): void {
  const chain = [parent, ...ancestorsOf(schema, parent)];
  if (child && chain.some((c) => c.id === child.id)) {
    details.push({ field: 'parentDataCollectionSimplyId', message: 'would make the collection its own ancestor' });
    return;
  }
  // levels: the ancestors, the collection itself, and its own descendants
  const levels = chain.length + 1 + (child ? heightOf(schema, child) : 0);
  if (levels > MAX_PARENT_DEPTH) {
    details.push({ field: 'parentDataCollectionSimplyId', message: `collections nest at most ${MAX_PARENT_DEPTH} levels deep` });
  }
}

export async function createCollection(ctx: RequestContext, raw: unknown): Promise<CollectionAccess> {
  const team = requireTeam(ctx);
  const input = parseInput(createCollectionInput, raw, 'Invalid data collection');
  const simplyId = newSimplyId();
  const id = await schemaWrite(ctx, `collection created: ${textLabel(input.name)} (${simplyId})`, async (tx) => {
    const schema = await loadSchemaTx(tx, team.id);
    const details: ErrorDetail[] = [];
    const parent = input.parentDataCollectionSimplyId ? findCollection(schema, input.parentDataCollectionSimplyId, 'parentDataCollectionSimplyId') : null;
    if (parent) checkParent(schema, parent, null, details);
    let criteria: unknown[] | undefined;
    if (input.type === 'SMART') {
      if (!parent) details.push({ field: 'parentDataCollectionSimplyId', message: 'is required for a SMART collection: it is the collection whose records the criteria select' });
      else if (parent.type === 'SMART') details.push({ field: 'parentDataCollectionSimplyId', message: 'must not be a SMART collection (criteria select from a collection that owns records)' });
      if (input.fields.length > 0) details.push({ field: 'fields', message: "a SMART collection has no fields of its own: it shows its source collection's fields" });
      if (input.dataRecordCalculatedNameFormula?.trim()) {
        details.push({ field: 'dataRecordCalculatedNameFormula', message: "a SMART collection shows its records' names from the source collection's formula" });
      }
      if (parent && parent.type !== 'SMART') criteria = checkCriteria(schema.fieldsOf(parent), input.filterCriteria, details);
    } else if (input.filterCriteria !== undefined && input.filterCriteria !== null) {
      details.push({ field: 'filterCriteria', message: 'only SMART collections take filterCriteria' });
    }
    const { drafts, duplicates } = draftFields(schema, input.fields, [], details, (i) => `fields.${i}`, [simplyId]);
    let formula: string | null = null;
    if (input.type !== 'SMART') {
      const result = canonicalFormula(input.dataRecordCalculatedNameFormula, drafts.map((d) => ({ dataFieldSimplyId: d.simplyId, columnName: d.columnName })));
      if ('unknown' in result) details.push(...formulaDetails(result.unknown));
      else formula = result.formula;
    }
    throwIfDetails('Invalid data collection', details);
    if (duplicates.length > 0) throw columnConflict(duplicates);
    const row = await tx.dataCollection.create({
      data: {
        simplyId,
        teamId: team.id,
        name: input.name as Prisma.InputJsonValue,
        singularName: (input.singularName ?? undefined) as Prisma.InputJsonValue | undefined,
        pluralName: (input.pluralName ?? undefined) as Prisma.InputJsonValue | undefined,
        archetype: input.archetype ?? null,
        type: input.type,
        parentId: parent?.id ?? null,
        calculatedNameFormula: formula,
        filterCriteria: criteria === undefined ? undefined : (criteria as Prisma.InputJsonValue),
      },
      select: { id: true },
    });
    if (drafts.length > 0) {
      await tx.dataField.createMany({
        data: drafts.map((d, i) => ({
          simplyId: d.simplyId,
          teamId: team.id,
          collectionId: row.id,
          title: d.title as Prisma.InputJsonValue,
          columnName: d.columnName,
          dataType: d.dataType,
          isRequired: d.isRequired,
          sortOrder: i,
          config: d.config as Prisma.InputJsonValue,
        })),
      });
    }
    return row.id;
  });
  if (input.type === 'SMART') await resyncSmartCollection(ctx.services.pool, team.id, id);
  return freshAccess(ctx, team.id, id);
}

/** name (required), singularName / pluralName (absent: unchanged, null: cleared). */
export async function renameCollection(ctx: RequestContext, simplyId: string, raw: unknown): Promise<CollectionAccess> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const input = parseInput(renameCollectionInput, raw, 'Invalid collection names');
  const id = await schemaWrite(ctx, `collection renamed: ${textLabel(input.name)} (${simplyId})`, async (tx) => {
    const collection = findCollection(await loadSchemaTx(tx, team.id), simplyId);
    const data: Prisma.DataCollectionUpdateInput = { name: input.name as Prisma.InputJsonValue };
    if (input.singularName !== undefined) data.singularName = input.singularName === null ? Prisma.DbNull : (input.singularName as Prisma.InputJsonValue);
    if (input.pluralName !== undefined) data.pluralName = input.pluralName === null ? Prisma.DbNull : (input.pluralName as Prisma.InputJsonValue);
    await tx.dataCollection.update({ where: { id: collection.id }, data });
    return collection.id;
  });
  return freshAccess(ctx, team.id, id);
}

/** What a PATCH or the admin PUT asks of a collection's settings; an absent key leaves its setting. */
export interface SettingChanges {
  archetype?: string | null;
  dataRecordCalculatedNameFormula?: string | null;
  filterCriteria?: unknown;
  parentDataCollectionSimplyId?: string | null;
}

/**
 * Checks `changes` against the collection (each problem into `details`, naming its field) and adds
 * them to `data`. `names`: the display-name formula changed, so the records' names are computed
 * again after the commit; `resync`: a SMART collection's criteria changed, so its memberships are
 * rebuilt after it.
 */
export function applySettingChanges(
  schema: TeamSchema,
  collection: CollectionDefinition,
  changes: SettingChanges,
  data: Prisma.DataCollectionUncheckedUpdateInput,
  details: ErrorDetail[],
): { names: boolean; resync: boolean } {
  const smart = collection.type === 'SMART';
  let names = false;
  let resync = false;
  if (changes.archetype !== undefined) data.archetype = changes.archetype;
  if (changes.dataRecordCalculatedNameFormula !== undefined) {
    if (smart && changes.dataRecordCalculatedNameFormula?.trim()) {
      details.push({ field: 'dataRecordCalculatedNameFormula', message: "a SMART collection shows its records' names from the source collection's formula" });
    } else if (!smart) {
      const result = canonicalFormula(changes.dataRecordCalculatedNameFormula, collection.ownFields);
      if ('unknown' in result) details.push(...formulaDetails(result.unknown));
      else if (result.formula !== collection.calculatedNameFormula) {
        data.calculatedNameFormula = result.formula;
        names = true;
      }
    }
  }
  if (changes.filterCriteria !== undefined) {
    if (!smart) details.push({ field: 'filterCriteria', message: 'only SMART collections take filterCriteria' });
    else {
      const criteria = checkCriteria(schema.fieldsOf(collection), changes.filterCriteria, details);
      if (JSON.stringify(criteria) !== JSON.stringify(collection.filterCriteria ?? [])) {
        data.filterCriteria = criteria as Prisma.InputJsonValue;
        resync = !collection.isArchived;
      }
    }
  }
  if (changes.parentDataCollectionSimplyId !== undefined && changes.parentDataCollectionSimplyId !== schema.parentSimplyId(collection)) {
    if (smart) details.push({ field: 'parentDataCollectionSimplyId', message: 'the source of a SMART collection cannot change; create another SMART collection' });
    else if (changes.parentDataCollectionSimplyId === null) data.parentId = null;
    else {
      const parent = findCollection(schema, changes.parentDataCollectionSimplyId, 'parentDataCollectionSimplyId');
      checkParent(schema, parent, collection, details);
      data.parentId = parent.id;
    }
  }
  return { names, resync };
}

/** PATCH of archetype, display-name formula, SMART criteria and parent. */
export async function updateCollection(ctx: RequestContext, simplyId: string, raw: unknown): Promise<CollectionAccess> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const input = parseInput(updateCollectionInput, raw, 'Invalid data collection');
  const outcome = await schemaWrite(ctx, `collection updated: ${simplyId}`, async (tx) => {
    const schema = await loadSchemaTx(tx, team.id);
    const collection = findCollection(schema, simplyId);
    const details: ErrorDetail[] = [];
    const data: Prisma.DataCollectionUncheckedUpdateInput = {};
    const effects = applySettingChanges(schema, collection, input, data, details);
    throwIfDetails('Invalid data collection', details);
    await tx.dataCollection.update({ where: { id: collection.id }, data });
    return { id: collection.id, ...effects };
  });
  await afterSettingChanges(ctx, team.id, outcome);
  return freshAccess(ctx, team.id, outcome.id);
}

/** After the commit of a settings change: the records' names, then a SMART collection's memberships. */
export async function afterSettingChanges(ctx: RequestContext, teamId: bigint, outcome: { id: bigint; names: boolean; resync: boolean }): Promise<void> {
  if (outcome.names) await renameRecordsAfterChange(ctx, teamId, outcome.id);
  if (outcome.resync) await resyncSmartCollection(ctx.services.pool, teamId, outcome.id);
}

/** Archived collections take no new records and leave the default list; a SMART one stops
 *  following its source until it is restored (then its memberships are rebuilt). */
export async function archiveCollection(ctx: RequestContext, simplyId: string, isArchived: unknown): Promise<CollectionAccess> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const input = parseInput(archiveCollectionInput, { isArchived }, 'Invalid archive state');
  const outcome = await schemaWrite(ctx, `collection ${input.isArchived ? 'archived' : 'restored'}: ${simplyId}`, async (tx) => {
    const collection = findCollection(await loadSchemaTx(tx, team.id), simplyId);
    await tx.dataCollection.update({ where: { id: collection.id }, data: { isArchived: input.isArchived } });
    return { id: collection.id, resync: collection.type === 'SMART' && collection.isArchived && !input.isArchived };
  });
  if (outcome.resync) await resyncSmartCollection(ctx.services.pool, team.id, outcome.id);
  return freshAccess(ctx, team.id, outcome.id);
}

export async function adminCollection(ctx: RequestContext, simplyId: string): Promise<CollectionDefinition> {
  const team = requireTeam(ctx);
  return findCollection(await ctx.services.schemas.get(team.id), simplyId);
}

/** POST …/recalculate-record-names: recomputes every live record's display name; returns how many changed. */
export async function recalculateRecordNames(ctx: RequestContext, simplyId: string): Promise<number> {
  const team = requireTeam(ctx);
  const collection = await adminCollection(ctx, simplyId);
  if (collection.type === 'SMART') {
    throw new ValidationError(`Collection ${simplyId} is SMART: its records are named by their source collection`, [{ field: 'dataCollectionSimplyId', message: 'is a SMART collection' }]);
  }
  return recomputeRecordNames(ctx.services.pool, team.id, collection.id);
}

/** POST …/resync-smart-membership: rebuilds a SMART collection's memberships from its criteria. */
export async function resyncSmartMembership(ctx: RequestContext, simplyId: string): Promise<CollectionAccess> {
  const team = requireTeam(ctx);
  const collection = await adminCollection(ctx, simplyId);
  if (collection.type !== 'SMART') {
    throw new ValidationError(`Collection ${simplyId} is not SMART`, [{ field: 'dataCollectionSimplyId', message: 'is not a SMART collection' }]);
  }
  if (collection.isArchived) {
    throw new ValidationError(`Collection ${simplyId} is archived; restore it first (that resyncs it)`, [{ field: 'dataCollectionSimplyId', message: 'is archived' }]);
  }
  await resyncSmartCollection(ctx.services.pool, team.id, collection.id);
  return freshAccess(ctx, team.id, collection.id);
}
