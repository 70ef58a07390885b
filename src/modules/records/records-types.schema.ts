// GraphQL objects of records. A record is served as the caller may see it (RecordView): its
// `fields` hold only readable fields (narrowed further by a projection), and nested reads
// (collection, field definitions, referenced records) come from the cached schema and one
// batched query per level (DataLoader), never one query per record.
import { builder } from '../../app/builder.ts';
import type { RequestContext } from '../../app/context.ts';
import { PaginationRef } from '../../app/graphql/page.ts';
import { requestLoader } from '../../app/request-loader.ts';
import { requireTeam } from '../../app/require-team.ts';
import { DataCollectionRef, DataFieldRef } from '../collections/index.ts';
import { indexKey, loadRecordViews, type RecordPage, type RecordView } from '../../kernel/index.ts';

function referencedRecordLoader(ctx: RequestContext) {
  return requestLoader<string, RecordView | null>(ctx, 'record.bySimplyId', async (ids) => {
    const schema = await ctx.services.schemas.get(requireTeam(ctx).id);
    const found = await loadRecordViews(ctx, schema, ids);
    return ids.map((id) => found.get(id) ?? null);
  });
}

export const DataRecordRef = builder.objectRef<RecordView>('DataRecord');

DataRecordRef.implement({
  // the record's own properties are read as properties (src/kernel/records/record-view.ts)
  fields: (t) => ({
    id: t.exposeString('id'),
    dataRecordSimplyId: t.exposeString('dataRecordSimplyId'),
    dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId', { description: 'the collection the record was created in' }),
    name: t.exposeString('name', { description: 'computed display name (read-only)' }),
    fields: t.expose('fields', { type: 'JSON', description: 'values keyed by field simplyId: the fields the caller may read (and asked for)' }),
    isArchived: t.exposeBoolean('isArchived'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    collection: t.field({ type: DataCollectionRef, description: 'the collection the record is read through', resolve: (v) => v.access }),
    fieldDefinitions: t.field({ type: [DataFieldRef], description: 'definitions of the fields in `fields`', resolve: (v) => v.shown }),
    referencedRecords: t.field({
      type: [DataRecordRef],
      description: 'records a SINGLE_/MULTI_DATA_RECORD field points at (those the caller may read)',
      args: { dataFieldSimplyId: t.arg.string({ required: true }) },
      resolve: async (v, args, ctx) => {
        const field = v.shown.find((f) => f.dataFieldSimplyId === args.dataFieldSimplyId);
        if (!field || !field.dataType.endsWith('_DATA_RECORD')) return [];
        const key = indexKey(field, v.row.values[field.dataFieldSimplyId]);
        const ids = key === null ? [] : (Array.isArray(key) ? key : [key]).map(String);
        const views = await referencedRecordLoader(ctx).loadMany(ids);
        return views.filter((x): x is RecordView => x !== null && !(x instanceof Error));
      },
    }),
  }),
});

const PageInfoRef = builder.objectRef<{ hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }>('PageInfo').implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    hasPreviousPage: t.exposeBoolean('hasPreviousPage'),
    startCursor: t.exposeString('startCursor', { nullable: true }),
    endCursor: t.exposeString('endCursor', { nullable: true }),
  }),
});

const RecordEdgeRef = builder.objectRef<{ cursor: string; node: RecordView }>('DataRecordEdge').implement({
  fields: (t) => ({
    cursor: t.exposeString('cursor'),
    node: t.field({ type: DataRecordRef, resolve: (e) => e.node }),
  }),
});

/** Cursors are opaque offsets: `after: <endCursor>` continues where a page stopped. */
export function offsetCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

export function offsetFromCursor(cursor: string): number | null {
  const match = /^offset:(\d{1,7})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? Number(match[1]) : null;
}

export const DataRecordPageRef = builder.objectRef<RecordPage>('DataRecordPage').implement({
  description: 'A page of records: `nodes` + `pagination` (the REST shape), or connection-style `edges` + `pageInfo`.',
  fields: (t) => ({
    nodes: t.expose('nodes', { type: [DataRecordRef] }),
    pagination: t.expose('pagination', { type: PaginationRef }),
    totalCount: t.int({ resolve: (p) => p.pagination.total }),
    edges: t.field({
      type: [RecordEdgeRef],
      resolve: (p) => p.nodes.map((node, i) => ({ cursor: offsetCursor(p.pagination.offset + i + 1), node })),
    }),
    pageInfo: t.field({
      type: PageInfoRef,
      resolve: (p) => ({
        hasNextPage: p.pagination.hasMore,
        hasPreviousPage: p.pagination.offset > 0,
        startCursor: p.nodes.length ? offsetCursor(p.pagination.offset + 1) : null,
        endCursor: p.nodes.length ? offsetCursor(p.pagination.offset + p.nodes.length) : null,
      }),
    }),
  }),
});
