// GraphQL face of record history, record outputs and output defaults (docs/api/background-tasks.md
// "Record history and outputs"). REST: the "record history and outputs" section of
// rest-adapter/routes/background-tasks.ts. Signed-in members only, like every background-task
// field (tier.signedInMemberOrFirstPartyApp: API keys and session tokens get IDP_REQUIRED); the data permissions
// are the services' to check.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, withArgs } from '../../app/graphql/args.ts';
import { deleteOutputDefault, eligibleOutputDestinations, upsertOutputDefault, type EligibleDestination, type EligibleDestinations, type OutputDefaultView } from './output-defaults.service.ts';
import { recordHistory, recordOutputDownload, type RecordHistory, type RecordHistoryArgs, type RecordHistoryEntry, type RecordOutputDownload, type RecordOutputView } from './record-outputs.service.ts';

type OutputFile = NonNullable<RecordOutputView['row']['file']>;
const RecordOutputFileRef = builder.objectRef<OutputFile>('RecordTaskOutputFile').implement({
  description: 'The team file an output stored (it is also in the record field it was written into).',
  fields: (t) => ({
    fileSimplyId: t.string({ resolve: (f) => f.simplyId }),
    filename: t.string({ resolve: (f) => f.filename }),
    mimeType: t.string({ resolve: (f) => f.mimeType }),
  }),
});

const RecordOutputRef = builder.objectRef<RecordOutputView>('RecordTaskOutput').implement({
  description: 'What a task left for one record: a generated document, and whether it was written into the destination field.',
  fields: (t) => ({
    recordOutputSimplyId: t.string({ resolve: (o) => o.row.simplyId }),
    outputKey: t.string({ resolve: (o) => o.row.outputKey }),
    outputKind: t.string({ description: 'FILE', resolve: (o) => o.row.outputKind }),
    status: t.string({ description: 'PENDING, SUCCEEDED (the document is stored), FAILED', resolve: (o) => o.row.status }),
    destinationWriteStatus: t.string({ description: 'PENDING, WRITTEN, SKIPPED (nothing to write), FAILED', resolve: (o) => o.row.destinationWriteStatus }),
    destinationWriteMode: t.string({ nullable: true, description: 'REPLACE or APPEND', resolve: (o) => o.row.destinationWriteMode }),
    destinationDataFieldSimplyId: t.string({ nullable: true, resolve: (o) => o.row.destinationFieldSimplyId }),
    result: t.field({ type: 'JSON', description: 'public metadata: externalTemplateName, filename, contentType, fileSizeBytes', resolve: (o) => o.row.result }),
    file: t.field({ type: RecordOutputFileRef, nullable: true, description: 'null until stored, or once the file was deleted', resolve: (o) => o.row.file }),
    canDownload: t.boolean({ description: 'whether you may download it now: SUCCEEDED, and you are a team admin, a reader of the destination field or the task\'s starter', resolve: (o) => o.canDownload }),
    createdAt: t.field({ type: 'DateTime', resolve: (o) => o.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (o) => o.row.updatedAt }),
  }),
});

const RecordHistoryEntryRef = builder.objectRef<RecordHistoryEntry>('RecordHistoryEntry').implement({
  description: 'One task that worked on the record, with what it left for it.',
  fields: (t) => ({
    recordTaskLinkSimplyId: t.string({ resolve: (e) => e.link.simplyId }),
    backgroundTaskSimplyId: t.string({ resolve: (e) => e.link.taskSimplyId }),
    enumBackgroundTaskTypeId: t.string({ resolve: (e) => e.link.taskType }),
    taskStatus: t.string({ resolve: (e) => e.link.taskStatus }),
    recordStatus: t.string({ description: 'PENDING, SUCCEEDED, FAILED, SKIPPED', resolve: (e) => e.link.recordStatus }),
    relationType: t.string({ description: 'TARGET', resolve: (e) => e.link.relationType }),
    outputs: t.field({ type: [RecordOutputRef], resolve: (e) => e.outputs }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.link.createdAt }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (e) => e.link.completedAt }),
  }),
});

const RecordHistoryRef = builder.objectRef<RecordHistory>('BackgroundTaskRecordHistory').implement({
  fields: (t) => ({
    dataRecordSimplyId: t.string({ resolve: (h) => h.dataRecordSimplyId }),
    dataCollectionSimplyId: t.string({ description: 'the collection the record is read through', resolve: (h) => h.dataCollectionSimplyId }),
    tasks: t.field({ type: [RecordHistoryEntryRef], description: 'newest first', resolve: (h) => h.tasks }),
    total: t.int({ resolve: (h) => h.total }),
    limit: t.int({ resolve: (h) => h.limit }),
    offset: t.int({ resolve: (h) => h.offset }),
  }),
});

const RecordOutputDownloadRef = builder.objectRef<RecordOutputDownload>('RecordOutputDownload').implement({
  description: "A URL for an output's document, valid for 60 seconds.",
  fields: (t) => ({
    recordOutputSimplyId: t.string({ resolve: (d) => d.recordOutputSimplyId }),
    fileSimplyId: t.string({ resolve: (d) => d.fileSimplyId }),
    url: t.string({ resolve: (d) => d.url }),
    expiresIn: t.int({ description: 'seconds (60)', resolve: (d) => d.expiresIn }),
    expiresAt: t.field({ type: 'DateTime', resolve: (d) => d.expiresAt }),
    filename: t.string({ resolve: (d) => d.filename }),
    contentType: t.string({ resolve: (d) => d.contentType }),
  }),
});

const OutputDefaultRef = builder.objectRef<OutputDefaultView>('TaskOutputDefault').implement({
  description: 'Where a task type writes its output for records of a collection when the task does not say.',
  fields: (t) => ({
    defaultSimplyId: t.string({ resolve: (d) => d.defaultSimplyId }),
    dataCollectionSimplyId: t.string({ resolve: (d) => d.dataCollectionSimplyId }),
    enumBackgroundTaskTypeId: t.string({ resolve: (d) => d.enumBackgroundTaskTypeId }),
    outputKey: t.string({ resolve: (d) => d.outputKey }),
    sourceContentTemplateSimplyId: t.string({ nullable: true, description: 'null: applies to every template', resolve: (d) => d.sourceContentTemplateSimplyId }),
    dataFieldSimplyId: t.string({ resolve: (d) => d.dataFieldSimplyId }),
    writeMode: t.string({ description: 'REPLACE or APPEND', resolve: (d) => d.writeMode }),
    isEnabled: t.boolean({ resolve: (d) => d.isEnabled }),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => d.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (d) => d.updatedAt }),
  }),
});

const EligibleDestinationRef = builder.objectRef<EligibleDestination>('EligibleOutputDestination').implement({
  description: 'A file field of the collection you may write a document into.',
  fields: (t) => ({
    dataFieldSimplyId: t.string({ resolve: (d) => d.dataFieldSimplyId }),
    title: t.field({ type: 'LocalizedText', nullable: true, resolve: (d) => (d.title ?? null) as never }),
    columnName: t.string({ resolve: (d) => d.columnName }),
    dataType: t.string({ description: 'SINGLE_FILE or MULTI_FILE', resolve: (d) => d.dataType }),
    writeModes: t.stringList({ description: 'REPLACE (and APPEND for MULTI_FILE)', resolve: (d) => d.writeModes }),
    isDefault: t.boolean({ description: 'the field the applicable output default names', resolve: (d) => d.isDefault }),
  }),
});

const EligibleDestinationsRef = builder.objectRef<EligibleDestinations>('EligibleOutputDestinations').implement({
  fields: (t) => ({
    dataCollectionSimplyId: t.string({ resolve: (e) => e.dataCollectionSimplyId }),
    enumBackgroundTaskTypeId: t.string({ resolve: (e) => e.enumBackgroundTaskTypeId }),
    outputKey: t.string({ resolve: (e) => e.outputKey }),
    sourceContentTemplateSimplyId: t.string({ nullable: true, resolve: (e) => e.sourceContentTemplateSimplyId }),
    destinations: t.field({ type: [EligibleDestinationRef], resolve: (e) => e.destinations }),
    currentDefault: t.field({ type: OutputDefaultRef, nullable: true, description: 'what a task naming no destination uses (null: none, the task must name one)', resolve: (e) => e.currentDefault }),
  }),
});

const UpsertOutputDefaultInput = builder.inputType('UpsertTaskOutputDefaultInput', {
  fields: (t) => ({
    dataCollectionSimplyId: t.string({ required: true }),
    enumBackgroundTaskTypeId: t.string({ required: true, description: 'DOCUMENT_GENERATION' }),
    outputKey: t.string({ required: true }),
    dataFieldSimplyId: t.string({ required: true, description: 'a SINGLE_FILE or MULTI_FILE field of the collection you may edit' }),
    writeMode: t.string({ required: true, description: 'REPLACE, or APPEND (MULTI_FILE only)' }),
    isEnabled: t.boolean({ description: 'default true' }),
    sourceContentTemplateSimplyId: t.string({ description: 'only for this document template; absent: every template' }),
  }),
});

builder.queryFields((t) => ({
  backgroundTaskRecordHistory: t.field({
    type: RecordHistoryRef,
    description: 'The tasks that worked on a record you can read, newest first, each with its outputs (limit default 25, max 100).',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { dataRecordSimplyId: t.arg.string({ required: true }), dataCollectionSimplyId: t.arg.string(), ...pageArgs(t.arg) },
    resolve: withArgs((ctx, args: RecordHistoryArgs) => recordHistory(ctx, args)),
  }),
  recordOutputDownload: t.field({
    type: RecordOutputDownloadRef,
    description: "A 60-second URL of a SUCCEEDED output's document (team admins, readers of the destination field, the task's starter).",
    authScopes: tier.signedInMemberOrFirstPartyApp,
    ...byId(t.arg, 'recordOutputSimplyId', recordOutputDownload),
  }),
  eligibleOutputDestinations: t.field({
    type: EligibleDestinationsRef,
    description: "The collection's file fields you may write a task's output into, with the applicable default marked.",
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: {
      dataCollectionSimplyId: t.arg.string({ required: true }),
      enumBackgroundTaskTypeId: t.arg.string({ required: true }),
      outputKey: t.arg.string({ required: true }),
      sourceContentTemplateSimplyId: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      eligibleOutputDestinations(ctx, {
        dataCollectionSimplyId: args.dataCollectionSimplyId,
        enumBackgroundTaskTypeId: args.enumBackgroundTaskTypeId,
        outputKey: args.outputKey,
        ...(args.sourceContentTemplateSimplyId ? { sourceContentTemplateSimplyId: args.sourceContentTemplateSimplyId } : {}),
      }),
  }),
}));

builder.mutationFields((t) => ({
  upsertTaskOutputDefault: t.field({
    type: OutputDefaultRef,
    description: 'Set where a task type writes its output for a collection (and optionally one template): edit access to the collection and the field.',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { input: t.arg({ type: UpsertOutputDefaultInput, required: true }) },
    resolve: (_root, args, ctx) => upsertOutputDefault(ctx, Object.fromEntries(Object.entries(args.input).filter(([, v]) => v !== null && v !== undefined))),
  }),
  deleteTaskOutputDefault: t.boolean({
    description: 'Remove an output default (edit access to its collection).',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    ...byId(t.arg, 'defaultSimplyId', deleteOutputDefault),
  }),
}));
