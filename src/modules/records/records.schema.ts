// GraphQL face of records (Document 1 §4.2). REST: rest-adapter/routes/records.ts.
// Data permissions are per collection and per field, so they are checked in records.service.ts
// once the collection is known; scope-auth here requires a usable team context.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { requireTeam } from '../../app/require-team.ts';
import { ValidationError } from '../../app/errors.ts';
import {
  collectionFor,
  createRecords,
  deleteRecordsById,
  getRecord,
  listRecords,
  type RecordChangeEvent,
  type RecordView,
  searchRecords,
  updateRecordsById,
  type WriteOutcome,
} from '../../kernel/index.ts';
import { mayReadCollection, recordOfChange, withSource } from './record-change-delivery.ts';
import './record-change-replay.ts';
import { DataRecordPageRef, DataRecordRef, offsetFromCursor } from './records-types.schema.ts';
import { createFromMenu } from './records-create-menu.service.ts';


interface WriteResult {
  record: RecordView;
  warnings: string[];
}

const WriteResultRef = builder.objectRef<WriteResult>('DataRecordWriteResult').implement({
  fields: (t) => ({
    record: t.field({ type: DataRecordRef, resolve: (r) => r.record }),
    warnings: t.exposeStringList('warnings', { description: 'e.g. unknown field keys that were skipped' }),
  }),
});

const DeleteResultRef = builder.objectRef<{ dataRecordSimplyId: string }>('DataRecordDeleteResult').implement({
  fields: (t) => ({
    id: t.exposeString('dataRecordSimplyId'),
    dataRecordSimplyId: t.exposeString('dataRecordSimplyId'),
    deleted: t.boolean({ resolve: () => true }),
  }),
});

type BatchItem = WriteOutcome['items'][number];

const BatchErrorRef = builder.objectRef<{ code: string; status: number; message: string; details?: unknown }>('DataRecordBatchError').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    status: t.exposeInt('status'),
    message: t.exposeString('message'),
    details: t.field({ type: 'JSON', nullable: true, resolve: (e) => (e.details ?? null) as never }),
  }),
});

const BatchItemRef = builder.objectRef<BatchItem>('DataRecordBatchItem').implement({
  fields: (t) => ({
    index: t.exposeInt('index'),
    ok: t.exposeBoolean('ok'),
    dataRecordSimplyId: t.string({ nullable: true, resolve: (i) => (i.ok ? i.record.row.simplyId : i.dataRecordSimplyId) }),
    record: t.field({ type: DataRecordRef, nullable: true, resolve: (i) => (i.ok ? i.record : null) }),
    error: t.field({ type: BatchErrorRef, nullable: true, resolve: (i) => (i.ok ? null : i.error) }),
  }),
});

const BatchResultRef = builder.objectRef<WriteOutcome & { operation: string }>('DataRecordBatchResult').implement({
  fields: (t) => ({
    operation: t.exposeString('operation', { description: 'CREATE, UPDATE or DELETE' }),
    succeeded: t.int({ resolve: (r) => r.items.filter((i) => i.ok).length }),
    failed: t.int({ resolve: (r) => r.items.filter((i) => !i.ok).length }),
    results: t.field({ type: [BatchItemRef], description: 'one per input item, in input order', resolve: (r) => r.items }),
    warnings: t.exposeStringList('warnings'),
  }),
});

const SearchInput = builder.inputType('DataRecordSearchInput', {
  fields: (t) => ({
    dataCollectionSimplyId: t.string({ required: true }),
    query: t.string(),
    filters: t.field({ type: 'JSON', description: '[{ field, operator, value }], up to 25, AND-ed' }),
    fields: t.stringList(),
    limit: t.int(),
    offset: t.int(),
    sort: t.string(),
  }),
});

const BatchUpdateItemInput = builder.inputType('DataRecordUpdateItemInput', {
  fields: (t) => ({
    dataRecordSimplyId: t.string({ required: true }),
    fields: t.field({ type: 'JSON', required: true }),
  }),
});

function offsetOf(args: { offset?: number | null; after?: string | null }): number | null | undefined {
  if (!args.after) return args.offset;
  const offset = offsetFromCursor(args.after);
  if (offset === null) throw new ValidationError('after is not a cursor of this API', [{ field: 'after', message: 'invalid cursor' }]);
  return offset;
}

const first = (outcome: WriteOutcome): WriteResult => ({ record: outcome.records[0]!, warnings: outcome.warnings });

builder.queryFields((t) => ({
  dataRecord: t.field({
    type: DataRecordRef,
    authScopes: tier.standardDataScoped,
    args: { dataRecordSimplyId: t.arg.string({ required: true }), fields: t.arg.stringList() },
    resolve: (_root, args, ctx) => getRecord(ctx, args.dataRecordSimplyId, args.fields),
  }),
  dataRecords: t.field({
    type: DataRecordPageRef,
    authScopes: tier.standardDataScoped,
    args: {
      dataCollectionSimplyId: t.arg.string({ required: true }),
      limit: t.arg.int(),
      offset: t.arg.int(),
      after: t.arg.string({ description: 'a cursor from pageInfo.endCursor (instead of offset)' }),
      sort: t.arg.string({ description: 'comma list of createdAt, updatedAt, calculatedName; "-" prefix for descending; default -createdAt' }),
      fields: t.arg.stringList(),
    },
    resolve: (_root, args, ctx) => listRecords(ctx, { ...args, offset: offsetOf(args) }),
  }),
  searchDataRecords: t.field({
    type: DataRecordPageRef,
    authScopes: tier.standardDataScoped,
    args: { input: t.arg({ type: SearchInput, required: true }), after: t.arg.string() },
    resolve: (_root, args, ctx) => searchRecords(ctx, { ...args.input, offset: offsetOf({ offset: args.input.offset, after: args.after }) }),
  }),
}));

builder.mutationFields((t) => ({
  createDataRecord: t.field({
    type: WriteResultRef,
    authScopes: tier.standardDataScoped,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), fields: t.arg({ type: 'JSON' }) },
    resolve: async (_root, args, ctx) => first(await createRecords(ctx, args.dataCollectionSimplyId, [args.fields ?? {}], { batch: false })),
  }),
  updateDataRecord: t.field({
    type: WriteResultRef,
    description: 'Writes only the supplied fields (REST PATCH and PUT); null clears a field.',
    authScopes: tier.standardDataScoped,
    args: { dataRecordSimplyId: t.arg.string({ required: true }), fields: t.arg({ type: 'JSON' }) },
    resolve: async (_root, args, ctx) => first(await updateRecordsById(ctx, [{ dataRecordSimplyId: args.dataRecordSimplyId, fields: args.fields ?? {} }], { batch: false })),
  }),
  deleteDataRecord: t.field({
    type: DeleteResultRef,
    description: 'Soft delete: the record disappears from list, get and search.',
    authScopes: tier.standardDataScoped,
    args: { dataRecordSimplyId: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await deleteRecordsById(ctx, [args.dataRecordSimplyId], { batch: false });
      return { dataRecordSimplyId: args.dataRecordSimplyId };
    },
  }),
  batchCreateDataRecords: t.field({
    type: BatchResultRef,
    authScopes: tier.standardDataScoped,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), records: t.arg({ type: ['JSON'], required: true, description: '[{ fields }], 1-100' }) },
    resolve: async (_root, args, ctx) => {
      const inputs = args.records.map((r) => (r && typeof r === 'object' && !Array.isArray(r) ? (r as { fields?: unknown }).fields : r));
      return { operation: 'CREATE', ...(await createRecords(ctx, args.dataCollectionSimplyId, inputs, { batch: true })) };
    },
  }),
  batchUpdateDataRecords: t.field({
    type: BatchResultRef,
    authScopes: tier.standardDataScoped,
    args: { records: t.arg({ type: [BatchUpdateItemInput], required: true }) },
    resolve: async (_root, args, ctx) => ({ operation: 'UPDATE', ...(await updateRecordsById(ctx, args.records, { batch: true })) }),
  }),
  batchDeleteDataRecords: t.field({
    type: BatchResultRef,
    authScopes: tier.standardDataScoped,
    args: { dataRecordSimplyIds: t.arg.stringList({ required: true }) },
    resolve: async (_root, args, ctx) => ({ operation: 'DELETE', ...(await deleteRecordsById(ctx, args.dataRecordSimplyIds, { batch: true })) }),
  }),
  createMenuDataRecord: t.field({
    type: WriteResultRef,
    description: 'Creates a record the way the dashboard create menu does (formData keyed by field simplyId or columnName).',
    authScopes: tier.standardDataScoped,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), formData: t.arg({ type: 'JSON' }) },
    resolve: async (_root, args, ctx) => first(await createFromMenu(ctx, args.dataCollectionSimplyId, args.formData)),
  }),
}));

const RecordChangeRef = builder.objectRef<RecordChangeEvent>('DataRecordChange').implement({
  fields: (t) => ({
    changeType: t.exposeString('changeType', { description: 'CREATED, UPDATED or DELETED' }),
    eventId: t.exposeString('eventId'),
    dataRecordSimplyId: t.exposeString('dataRecordSimplyId'),
    dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId'),
    changedFieldSimplyIds: t.exposeStringList('changedFieldSimplyIds', { description: 'readable fields whose value changed' }),
    occurredAt: t.exposeString('occurredAt'),
    record: t.field({
      type: DataRecordRef,
      nullable: true,
      description: 'the record as it is now (null once deleted)',
      resolve: (e, _args, ctx) => recordOfChange(ctx, e),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  dataRecordChanges: t.field({
    type: RecordChangeRef,
    description: 'Record creates, updates and deletes in one collection, from every instance.',
    authScopes: tier.standardDataScoped,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      await collectionFor(ctx, args.dataCollectionSimplyId, 'READ');
      // the role may change while subscribed: each event is checked against the credential as it is
      // now, and dropped once the collection is no longer readable
      return ctx.services.events.pubsub.subscribe('dataRecordChanges', `${requireTeam(ctx).simplyId}:${args.dataCollectionSimplyId}`, {
        context: ctx,
        accept: (now) => mayReadCollection(now, args.dataCollectionSimplyId),
      });
    },
    resolve: async (event, args, ctx) => {
      // narrow to the fields readable now
      const access = await collectionFor(ctx, args.dataCollectionSimplyId, 'READ');
      const readable = new Set(access.readable.map((f) => f.dataFieldSimplyId));
      return withSource({ ...event, changedFieldSimplyIds: event.changedFieldSimplyIds.filter((id) => readable.has(id)) }, event);
    },
  }),
}));
