// Data views (Document 1 §2.5, §4.4): saved ways to look at one collection. Reading a view needs
// read permission on its collection (and, for scoped tokens, schema:read: views are schema); its records need
// records:read. Creating and deleting views are schema changes: they go through schemaWrite, so
// each one records a new team schema version.
import type { Principal, TeamRef } from '../../app/auth/principal.ts';
import type { DataView } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { pagination, parsePaging, type PageInput, type PaginationShape, paginationOf, byCreation } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { NotFoundError, PermissionDeniedError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { dataViewId, viewFieldLinkId } from './views.ids.ts';
import { canReadCollection, type CollectionDefinition, findRecordPage, type RecordRow, requireRecordCredential, type TeamSchema } from '../../kernel/index.ts';
import { requireSchemaRead, schemaWrite } from '../team-schema/index.ts';
import { parseInput } from '../../app/validate.ts';
import { dataViewInput, validateViewConfig } from './views.input.ts';
import { toStored } from './views.config.ts';
import { assertInternalNameFree } from './views.admin.service.ts';

/** A view as served: its row and the simplyId of its collection. */
export interface ViewItem {
  row: DataView;
  dataCollectionSimplyId: string;
}

/** A record row of a view: no field values. */
export interface ViewRecordItem {
  row: RecordRow;
  dataCollectionSimplyId: string;
}

export interface ViewPage<T> {
  nodes: T[];
  pagination: PaginationShape;
}

/** One-line label of a localized name (for version summaries). */
export function labelOf(name: unknown): string {
  if (typeof name === 'string') return name;
  if (name && typeof name === 'object') return String(Object.values(name as Record<string, unknown>)[0] ?? '');
  return '';
}

function item(schema: TeamSchema, row: DataView): ViewItem {
  return { row, dataCollectionSimplyId: schema.collectionsById.get(row.collectionId)?.simplyId ?? '' };
}

/** The view in the caller's team (404 otherwise) and its collection. */
async function findView(ctx: RequestContext, simplyId: string): Promise<{ row: DataView; schema: TeamSchema; collection: CollectionDefinition }> {
  const team = requireTeam(ctx);
  const [row, schema] = await Promise.all([
    ctx.services.prisma.dataView.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } }),
    ctx.services.schemas.get(team.id),
  ]);
  const collection = row && schema.collectionsById.get(row.collectionId);
  if (!row || !collection) throw new NotFoundError('Data view', simplyId);
  return { row, schema, collection };
}

function requireReadable(p: Principal, collection: CollectionDefinition): void {
  if (!canReadCollection(p, collection)) {
    throw new PermissionDeniedError(`The credential's team role cannot read collection ${collection.simplyId}, so it cannot read its views`);
  }
}

/** The view in the caller's team (404 otherwise) whose collection the caller can read (403 otherwise). */
export async function findReadableView(ctx: RequestContext, simplyId: string): Promise<{ row: DataView; schema: TeamSchema; collection: CollectionDefinition; team: TeamRef }> {
  const team = requireTeam(ctx);
  const found = await findView(ctx, simplyId);
  requireReadable(ctx.principal, found.collection);
  return { ...found, team };
}

export interface ListViewsArgs extends PageInput {
  dataCollectionSimplyId?: string | null;
}

/** Views whose collection the caller can read, newest first; optionally of one collection. */
export async function listViews(ctx: RequestContext, args: ListViewsArgs): Promise<ViewPage<ViewItem>> {
  const team = requireTeam(ctx);
  const p = ctx.principal;
  requireSchemaRead(p);
  const paging = parsePaging(args);
  const schema = await ctx.services.schemas.get(team.id);
  let collectionIds: bigint[];
  if (args.dataCollectionSimplyId !== undefined && args.dataCollectionSimplyId !== null) {
    assertDataSimplyId(args.dataCollectionSimplyId, 'dataCollectionSimplyId', 'collection');
    const collection = schema.collectionsBySimplyId.get(args.dataCollectionSimplyId);
    if (!collection) throw new NotFoundError('Data collection', args.dataCollectionSimplyId);
    requireReadable(p, collection);
    collectionIds = [collection.id];
  } else {
    collectionIds = schema.collections.filter((c) => canReadCollection(p, c)).map((c) => c.id);
  }
  if (collectionIds.length === 0) return { nodes: [], pagination: pagination(0, paging) };
  const where = { teamId: team.id, collectionId: { in: collectionIds } };
  const rows = await ctx.services.prisma.dataView.findMany({ where, ...byCreation(paging, 'desc') });
  return { nodes: rows.map((row) => item(schema, row)), pagination: await paginationOf(rows.length, paging, () => ctx.services.prisma.dataView.count({ where })) };
}

export async function getView(ctx: RequestContext, simplyId: string): Promise<ViewItem> {
  requireTeam(ctx);
  dataViewId.assert(simplyId, 'dataViewSimplyId');
  requireSchemaRead(ctx.principal);
  const { row, schema, collection } = await findView(ctx, simplyId);
  requireReadable(ctx.principal, collection);
  return item(schema, row);
}

/**
 * The records of a view's collection as summaries (no field values), newest first. Document 1
 * §4.4: the view's saved filters and sort order are not applied server-side.
 */
export async function viewRecords(ctx: RequestContext, simplyId: string, args: PageInput): Promise<ViewPage<ViewRecordItem>> {
  requireTeam(ctx);
  dataViewId.assert(simplyId, 'dataViewSimplyId');
  const paging = parsePaging(args);
  requireRecordCredential(ctx.principal, 'READ');
  const { schema, collection } = await findView(ctx, simplyId);
  if (!canReadCollection(ctx.principal, collection)) {
    throw new PermissionDeniedError(`The credential's team role cannot read records of collection ${collection.simplyId}`);
  }
  const { rows, total } = await findRecordPage(ctx.services.pool, {
    teamId: schema.teamId,
    collectionId: collection.id,
    filters: [],
    fieldsById: new Map(),
    sort: [{ key: 'createdAt', descending: true }],
    ...paging,
  });
  return {
    nodes: rows.map((row) => ({ row, dataCollectionSimplyId: schema.collectionsById.get(row.collectionId)?.simplyId ?? collection.simplyId })),
    pagination: pagination(total, paging),
  };
}

/** Privileged: creates a view (a schema change, recorded as a new version). */
export async function createView(ctx: RequestContext, raw: unknown): Promise<ViewItem> {
  const team = requireTeam(ctx);
  const input = parseInput(dataViewInput, raw, 'Invalid data view');
  const schema = await ctx.services.schemas.get(team.id);
  const collection = schema.collectionsBySimplyId.get(input.dataCollectionSimplyId);
  if (!collection) throw new NotFoundError('Data collection', input.dataCollectionSimplyId);
  const config = validateViewConfig(schema.fieldsOf(collection), input.config);
  const simplyId = dataViewId.create();
  const row = await schemaWrite(ctx, `view created: ${labelOf(input.name)} (${simplyId}) on collection ${collection.simplyId}`, async (tx) => {
    // the collection may have gone since the cached schema was read
    const current = await tx.dataCollection.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: collection.simplyId } }, select: { id: true } });
    if (!current) throw new NotFoundError('Data collection', collection.simplyId);
    if (input.internalName !== null) await assertInternalNameFree(tx, team.id, input.internalName, null);
    // each column becomes a display field link of its own (administration edits them one by one)
    const stored = toStored(
      {
        ...config,
        grouping: [],
        calendar: null,
        map: null,
        displayFieldLinks: config.columns.map((dataFieldSimplyId) => ({ id: viewFieldLinkId.create(), dataFieldSimplyId, label: null, aggregation: null })),
        filterFieldLinks: [],
        calendarDateInfoFieldLinks: [],
      },
      () => true,
    );
    return tx.dataView.create({
      data: {
        teamId: team.id,
        simplyId,
        collectionId: current.id,
        name: input.name,
        description: input.description,
        internalName: input.internalName,
        viewType: input.enumDataViewTypeId,
        isPublished: input.isPublished,
        config: stored as never,
      },
    });
  });
  return { row, dataCollectionSimplyId: collection.simplyId };
}

/** Privileged: deletes a view (a schema change, recorded as a new version). */
export async function deleteView(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  dataViewId.assert(simplyId, 'dataViewSimplyId');
  await schemaWrite(
    ctx,
    (row: DataView) => `view deleted: ${labelOf(row.name)} (${simplyId})`,
    async (tx) => {
      const row = await tx.dataView.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
      if (!row) throw new NotFoundError('Data view', simplyId);
      await tx.dataView.delete({ where: { id: row.id } });
      return row;
    },
  );
  return true;
}
