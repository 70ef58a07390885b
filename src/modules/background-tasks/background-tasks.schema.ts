// GraphQL face of background tasks (docs/api/background-tasks.md). REST:
// rest-adapter/routes/background-tasks.ts. Signed-in members or first-party apps (tier.signedInMemberOrFirstPartyApp: API keys
// and session tokens get IDP_REQUIRED); the per-type permissions of create are the type's own
// (task-types.ts), visibility is task-visibility.ts.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, withArgs } from '../../app/graphql/args.ts';
import type { BackgroundTaskError } from '../../generated/prisma/client.ts';
import type { BackgroundTaskEvent } from './background-tasks.events.ts';
import {
  acknowledgeTaskError,
  archiveTask,
  cancelTask,
  createTask,
  getTask,
  listTasks,
  resultDownload,
  subscribeTask,
  unarchiveTask,
  type AcknowledgeResult,
  type ListTasksArgs,
  type ResultDownload,
  type TaskPage,
  type TaskView,
} from './background-tasks.service.ts';

const TaskErrorRef = builder.objectRef<BackgroundTaskError>('BackgroundTaskError').implement({
  description: 'One error entry: what went wrong, where (errorContext: row number, field, record), and whether someone acknowledged it.',
  fields: (t) => ({
    backgroundTaskErrorSimplyId: t.string({ resolve: (e) => e.simplyId }),
    simplyId: t.string({ resolve: (e) => e.simplyId }),
    errorType: t.string({ resolve: (e) => e.errorType }),
    errorMessage: t.string({ resolve: (e) => e.errorMessage }),
    errorContext: t.field({ type: 'JSON', resolve: (e) => e.errorContext }),
    occurredAt: t.field({ type: 'DateTime', resolve: (e) => e.occurredAt }),
    acknowledgedAt: t.field({ type: 'DateTime', nullable: true, resolve: (e) => e.acknowledgedAt }),
  }),
});

export const BackgroundTaskRef = builder.objectRef<TaskView>('BackgroundTask').implement({
  description: 'Long work followed by the people who may see it: status, progress, result (detail only) and errors.',
  fields: (t) => ({
    id: t.string({ resolve: (v) => v.row.simplyId }),
    backgroundTaskSimplyId: t.string({ resolve: (v) => v.row.simplyId }),
    simplyId: t.string({ resolve: (v) => v.row.simplyId }),
    enumBackgroundTaskTypeId: t.string({ resolve: (v) => v.row.taskType }),
    status: t.string({ description: 'QUEUED, PROCESSING, COMPLETED, FAILED, PARTIAL_SUCCESS', resolve: (v) => v.row.status }),
    progress: t.field({ type: 'JSON', description: 'processedCount, totalCount (and counters of the type)', resolve: (v) => v.row.progress }),
    result: t.field({ type: 'JSON', nullable: true, description: 'public result fields; always null in lists', resolve: (v) => v.result }),
    errorCount: t.int({ resolve: (v) => v.row.errorCount }),
    errorCountUnacknowledged: t.int({ resolve: (v) => v.row.unacknowledgedErrorCount }),
    unacknowledgedErrorCount: t.int({ resolve: (v) => v.row.unacknowledgedErrorCount }),
    errors: t.field({ type: [TaskErrorRef], nullable: true, description: `detail only: unacknowledged error entries, oldest first (at most 100; acknowledge to see more)`, resolve: (v) => v.errors }),
    canDownloadResult: t.boolean({ resolve: (v) => v.canDownloadResult }),
    cancelRequested: t.boolean({ resolve: (v) => v.row.cancelRequestedAt !== null }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.row.createdAt }),
    startedAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => v.row.startedAt }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => v.row.completedAt }),
    lastUpdatedAt: t.field({ type: 'DateTime', resolve: (v) => v.row.lastUpdatedAt }),
    clearedAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => v.row.clearedAt }),
  }),
});

const TaskPageRef = builder.objectRef<TaskPage>('BackgroundTaskPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [BackgroundTaskRef], resolve: (p) => p.nodes }),
    canViewBackgroundTasks: t.boolean({ resolve: (p) => p.canViewBackgroundTasks }),
    total: t.int({ resolve: (p) => p.total }),
    limit: t.int({ resolve: (p) => p.limit }),
    offset: t.int({ resolve: (p) => p.offset }),
  }),
});

const AcknowledgeRef = builder.objectRef<AcknowledgeResult>('BackgroundTaskErrorAcknowledged').implement({
  fields: (t) => ({
    success: t.boolean({ resolve: (r) => r.success }),
    backgroundTaskErrorSimplyId: t.string({ resolve: (r) => r.backgroundTaskErrorSimplyId }),
    acknowledgedAt: t.field({ type: 'DateTime', resolve: (r) => r.acknowledgedAt }),
    unacknowledgedCount: t.int({ resolve: (r) => r.unacknowledgedCount }),
  }),
});

const ArchivedRef = builder.objectRef<{ success: true; clearedAt: Date }>('BackgroundTaskArchived').implement({
  fields: (t) => ({
    success: t.boolean({ resolve: (r) => r.success }),
    clearedAt: t.field({ type: 'DateTime', resolve: (r) => r.clearedAt }),
  }),
});

const UnarchivedRef = builder.objectRef<{ success: true }>('BackgroundTaskUnarchived').implement({
  fields: (t) => ({ success: t.boolean({ resolve: (r) => r.success }) }),
});

const ResultDownloadRef = builder.objectRef<ResultDownload>('BackgroundTaskResultDownload').implement({
  description: 'A URL for the result file, valid for 60 seconds.',
  fields: (t) => ({
    url: t.string({ resolve: (r) => r.url }),
    expiresIn: t.int({ resolve: (r) => r.expiresIn }),
    expiresAt: t.field({ type: 'DateTime', resolve: (r) => r.expiresAt }),
    filename: t.string({ resolve: (r) => r.filename }),
    contentType: t.string({ resolve: (r) => r.contentType }),
  }),
});

const TaskEventRef = builder.objectRef<BackgroundTaskEvent>('BackgroundTaskProgressEvent').implement({
  description: 'A status or progress change of one task.',
  fields: (t) => ({
    backgroundTaskSimplyId: t.string({ resolve: (e) => e.backgroundTaskSimplyId }),
    enumBackgroundTaskTypeId: t.string({ resolve: (e) => e.enumBackgroundTaskTypeId }),
    status: t.string({ resolve: (e) => e.status }),
    progress: t.field({ type: 'JSON', resolve: (e) => e.progress }),
    errorCount: t.int({ resolve: (e) => e.errorCount }),
    unacknowledgedErrorCount: t.int({ resolve: (e) => e.unacknowledgedErrorCount }),
    lastUpdatedAt: t.string({ resolve: (e) => e.lastUpdatedAt }),
    completedAt: t.string({ nullable: true, resolve: (e) => e.completedAt }),
  }),
});

const CreateTaskInput = builder.inputType('CreateBackgroundTaskInput', {
  fields: (t) => ({
    enumBackgroundTaskTypeId: t.string({ required: true }),
    queueData: t.field({ type: 'JSON' }),
  }),
});

builder.queryFields((t) => ({
  backgroundTasks: t.field({
    type: TaskPageRef,
    description: 'Tasks the caller may see (team admins: all), newest first; archived ones only with includeArchived. result is always null here.',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: {
      ...pageArgs(t.arg),
      status: t.arg.string(),
      enumBackgroundTaskTypeId: t.arg.string(),
      teamIntegrationSimplyId: t.arg.string(),
      includeArchived: t.arg.boolean(),
    },
    resolve: withArgs((ctx, args: ListTasksArgs) => listTasks(ctx, args)),
  }),
  backgroundTask: t.field({
    type: BackgroundTaskRef,
    description: 'One task with its sanitized result and unacknowledged errors.',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    ...byId(t.arg, 'backgroundTaskSimplyId', getTask),
  }),
  backgroundTaskResultDownload: t.field({
    type: ResultDownloadRef,
    description: "The result file (an export's CSV) for the person who started the task, after rechecking the export's scope.",
    authScopes: tier.signedInMemberOrFirstPartyApp,
    ...byId(t.arg, 'backgroundTaskSimplyId', resultDownload),
  }),
}));

builder.mutationFields((t) => ({
  createBackgroundTask: t.field({
    type: BackgroundTaskRef,
    description: 'Start a task: enumBackgroundTaskTypeId and the type\'s queueData; the permission is checked per type.',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { input: t.arg({ type: CreateTaskInput, required: true }) },
    resolve: (_root, args, ctx) => createTask(ctx, { enumBackgroundTaskTypeId: args.input.enumBackgroundTaskTypeId, ...(args.input.queueData === undefined || args.input.queueData === null ? {} : { queueData: args.input.queueData }) }),
  }),
  acknowledgeBackgroundTaskError: t.field({
    type: AcknowledgeRef,
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { backgroundTaskSimplyId: t.arg.string({ required: true }), backgroundTaskErrorSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => acknowledgeTaskError(ctx, args.backgroundTaskSimplyId, args.backgroundTaskErrorSimplyId),
  }),
  archiveBackgroundTask: t.field({ type: ArchivedRef, authScopes: tier.signedInMemberOrFirstPartyApp, ...byId(t.arg, 'backgroundTaskSimplyId', archiveTask) }),
  unarchiveBackgroundTask: t.field({ type: UnarchivedRef, authScopes: tier.signedInMemberOrFirstPartyApp, ...byId(t.arg, 'backgroundTaskSimplyId', unarchiveTask) }),
  cancelBackgroundTask: t.field({
    type: BackgroundTaskRef,
    description: 'Cancel a queued task (it ends FAILED at once) or ask a processing one to stop at its next progress update; the starter or a team admin.',
    authScopes: tier.signedInMemberOrFirstPartyApp,
    ...byId(t.arg, 'backgroundTaskSimplyId', cancelTask),
  }),
}));

builder.subscriptionFields((t) => ({
  backgroundTaskProgress: t.field({
    type: TaskEventRef,
    description: "Status and progress changes of one task the caller may see, from every instance (polling lastUpdatedAt works too).",
    authScopes: tier.signedInMemberOrFirstPartyApp,
    args: { backgroundTaskSimplyId: t.arg.string({ required: true }) },
    subscribe: (_root, args, ctx) => subscribeTask(ctx, args.backgroundTaskSimplyId),
    resolve: (event) => event as BackgroundTaskEvent,
  }),
}));
