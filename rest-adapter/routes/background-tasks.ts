// /v1/background-tasks… → src/modules/background-tasks/background-tasks.schema.ts and
// record-outputs.schema.ts (docs/api/background-tasks.md)
import { z } from 'zod';
import { operation } from '../../src/app/graphql/fragments.ts';
import { createTaskInput, listTasksQuery, TASK_LIMITS } from '../../src/modules/background-tasks/background-tasks.input.ts';
import { BACKGROUND_TASK, BACKGROUND_TASK_PAGE, TASK_ERROR_ACKNOWLEDGED, TASK_RESULT_DOWNLOAD } from '../../src/modules/background-tasks/background-tasks.fragments.ts';
// record history and outputs (record-outputs.schema.ts)
import { ELIGIBLE_OUTPUT_DESTINATIONS, RECORD_HISTORY, RECORD_OUTPUT_DOWNLOAD, TASK_OUTPUT_DEFAULT } from '../../src/modules/background-tasks/record-outputs.fragments.ts';
import { eligibleDestinationsQuery, RECORD_HISTORY_LIMITS, recordHistoryQuery, upsertOutputDefaultInput } from '../../src/modules/background-tasks/record-outputs.input.ts';
import { defineRoutes, respond, route, type JsonSchema, type RouteExtension } from '../route.ts';
import { actOn, createOne, getOne } from '../route-shapes.ts';
import { queryBool, queryInt } from '../schemas.ts';

const TASKS = '/v1/background-tasks';
const ONE = `${TASKS}/{backgroundTaskSimplyId}`;
const emptyBody = z.object({}).strict().optional();

/** data: { tasks, canViewBackgroundTasks, total, limit, offset } (the page's nodes are the tasks). */
const taskPage = respond.custom(
  ({ nodes, ...rest }: { nodes: unknown[] } & Record<string, unknown>) => ({ data: { tasks: nodes, ...rest } }),
  (field) => {
    const { nodes, ...rest } = (field.properties ?? {}) as Record<string, JsonSchema>;
    return { data: { type: 'object', properties: { tasks: nodes ?? {}, ...rest }, required: ['tasks', ...Object.keys(rest)] } };
  },
);

const TASK_CANCEL = 'cancelling a background task (docs/api/background-tasks.md "Cancelling a task"): tasks can be cancelled while queued or processing, and the route checklist has no route for it';

/** Served routes the documents do not list, each with why it exists (OpenAPI `x-extension`). */
const EXTENSIONS: Record<string, RouteExtension> = {
  'POST /v1/background-tasks/{backgroundTaskSimplyId}/cancel': { reason: TASK_CANCEL },
};

export const backgroundTaskRoutes = defineRoutes([
  // ---- tasks (background-tasks.schema.ts) ----
  route({
    method: 'GET',
    path: TASKS,
    summary: 'List background tasks',
    description: `Tasks the caller may see, newest first (team admins: all; others their own exports, imports, deletes, document generations): limit (default ${TASK_LIMITS.defaultLimit}, max ${TASK_LIMITS.maxLimit}), offset, status, enumBackgroundTaskTypeId, teamIntegrationSimplyId (404 when not in the team), includeArchived; result is always null`,
    operation: operation`query BackgroundTasks($limit: Int, $offset: Int, $status: String, $enumBackgroundTaskTypeId: String, $teamIntegrationSimplyId: String, $includeArchived: Boolean) {
      backgroundTasks(limit: $limit, offset: $offset, status: $status, enumBackgroundTaskTypeId: $enumBackgroundTaskTypeId, teamIntegrationSimplyId: $teamIntegrationSimplyId, includeArchived: $includeArchived) { ${BACKGROUND_TASK_PAGE} } }`,
    query: z.object({ limit: queryInt(), offset: queryInt(), ...listTasksQuery, includeArchived: queryBool() }),
    variables: ({ query }) => query as Record<string, unknown>,
    respond: taskPage,
  }),
  createOne({
    path: TASKS,
    summary: 'Start a background task',
    description: 'Start a task (privileged; the permission is checked per type): { enumBackgroundTaskTypeId, queueData } → 201 the task (QUEUED)',
    name: 'CreateBackgroundTask',
    inputType: 'CreateBackgroundTaskInput',
    body: createTaskInput,
    example: {
      enumBackgroundTaskTypeId: 'DATA_EXPORT',
      queueData: {
        dataCollectionSimplyId: 'GH89-JK23-MN45',
        dataFieldSimplyIds: ['fld-AB23-CD45-EF67', 'fld-GH89-JK23-MN45'],
        systemColumns: ['RECORD_SIMPLY_ID', 'CALCULATED_NAME'],
        requestFilter: [{ field: 'fld-JK23-MN45-PQ67', operator: 'gte', value: 18 }],
      },
    },
    select: BACKGROUND_TASK,
  }),
  getOne({ path: ONE, summary: 'Get a background task', description: 'One task: the list fields, the sanitized result and the unacknowledged errors (at most 100, oldest first)', name: 'BackgroundTask', select: BACKGROUND_TASK }),
  actOn({
    method: 'POST',
    path: `${ONE}/errors/{backgroundTaskErrorSimplyId}/acknowledge`,
    summary: 'Acknowledge a task error',
    description: 'Acknowledge one error entry (it leaves the detail): {} → success, acknowledgedAt, unacknowledgedCount',
    name: 'AcknowledgeBackgroundTaskError',
    select: TASK_ERROR_ACKNOWLEDGED,
    body: emptyBody,
  }),
  actOn({ method: 'POST', path: `${ONE}/archive`, summary: 'Archive a background task', description: 'Archive a finished task: {} → success, clearedAt; a task still queued or processing: 409', name: 'ArchiveBackgroundTask', select: 'success clearedAt', body: emptyBody }),
  actOn({ method: 'POST', path: `${ONE}/unarchive`, summary: 'Unarchive a background task', description: 'Bring an archived task back into the list: {} → success', name: 'UnarchiveBackgroundTask', select: 'success', body: emptyBody }),
  actOn({
    method: 'POST',
    path: `${ONE}/cancel`,
    summary: 'Cancel a background task',
    description: 'Cancel (the starter or a team admin): a queued task ends FAILED at once; a processing one stops at its next progress update, keeping the work already done; a finished task: 409',
    name: 'CancelBackgroundTask',
    select: BACKGROUND_TASK,
    body: emptyBody,
  }),
  route({
    method: 'GET',
    path: `${ONE}/result-download`,
    summary: 'Download a task result',
    description: "The result file (an export's CSV) for the person who started the task, after the export's scope is rechecked: url (valid 60 seconds), expiresIn, filename",
    operation: operation`query BackgroundTaskResultDownload($id: String!) { backgroundTaskResultDownload(backgroundTaskSimplyId: $id) { ${TASK_RESULT_DOWNLOAD} } }`,
    variables: ({ params }) => ({ id: params.backgroundTaskSimplyId }),
  }),

  // ---- record history and outputs (record-outputs.schema.ts) ----
  route({
    method: 'GET',
    path: `${TASKS}/record-history`,
    summary: "List a record's task history",
    description: `The tasks that worked on a record you can read, newest first, each with its outputs: dataRecordSimplyId (required), dataCollectionSimplyId (default: the first of the record's collections you can read), limit (default ${RECORD_HISTORY_LIMITS.defaultLimit}, max ${RECORD_HISTORY_LIMITS.maxLimit}), offset; a record you cannot read: 404`,
    operation: operation`query BackgroundTaskRecordHistory($dataRecordSimplyId: String!, $dataCollectionSimplyId: String, $limit: Int, $offset: Int) {
      backgroundTaskRecordHistory(dataRecordSimplyId: $dataRecordSimplyId, dataCollectionSimplyId: $dataCollectionSimplyId, limit: $limit, offset: $offset) { ${RECORD_HISTORY} } }`,
    query: z.object({ ...recordHistoryQuery, limit: queryInt(), offset: queryInt() }),
    variables: ({ query }) => query as Record<string, unknown>,
  }),
  route({
    method: 'GET',
    path: `${TASKS}/record-outputs/{recordOutputSimplyId}/download`,
    summary: 'Download a record output',
    description: "A URL of an output's document, valid 60 seconds: url, expiresIn, filename. SUCCEEDED outputs only (else 409 RECORD_OUTPUT_NOT_AVAILABLE); team admins, readers of the destination field and the task's starter (else 403, or 404 when you cannot read the record)",
    operation: operation`query RecordOutputDownload($id: String!) { recordOutputDownload(recordOutputSimplyId: $id) { ${RECORD_OUTPUT_DOWNLOAD} } }`,
    variables: ({ params }) => ({ id: params.recordOutputSimplyId }),
  }),
  route({
    method: 'GET',
    path: `${TASKS}/output-destinations/eligible`,
    summary: 'List eligible output destinations',
    description: "The collection's file fields you may write a task's output into, with the applicable output default: dataCollectionSimplyId, enumBackgroundTaskTypeId, outputKey (all required), sourceContentTemplateSimplyId",
    operation: operation`query EligibleOutputDestinations($dataCollectionSimplyId: String!, $enumBackgroundTaskTypeId: String!, $outputKey: String!, $sourceContentTemplateSimplyId: String) {
      eligibleOutputDestinations(dataCollectionSimplyId: $dataCollectionSimplyId, enumBackgroundTaskTypeId: $enumBackgroundTaskTypeId, outputKey: $outputKey, sourceContentTemplateSimplyId: $sourceContentTemplateSimplyId) { ${ELIGIBLE_OUTPUT_DESTINATIONS} } }`,
    query: z.object(eligibleDestinationsQuery),
    variables: ({ query }) => query as Record<string, unknown>,
  }),
  route({
    method: 'PUT',
    path: `${TASKS}/output-defaults`,
    summary: 'Set a task output default',
    description: 'Set (create or replace) where a task type writes its output for a collection: { dataCollectionSimplyId, enumBackgroundTaskTypeId, outputKey, dataFieldSimplyId, writeMode (REPLACE | APPEND), isEnabled?, sourceContentTemplateSimplyId? }; edit access to the collection and the field',
    operation: operation`mutation UpsertTaskOutputDefault($input: UpsertTaskOutputDefaultInput!) { upsertTaskOutputDefault(input: $input) { ${TASK_OUTPUT_DEFAULT} } }`,
    body: upsertOutputDefaultInput,
    example: {
      dataCollectionSimplyId: 'GH89-JK23-MN45',
      enumBackgroundTaskTypeId: 'DOCUMENT_GENERATION',
      outputKey: 'document',
      dataFieldSimplyId: 'fld-PQ67-RS89-TU23',
      writeMode: 'APPEND',
      sourceContentTemplateSimplyId: 'ctpl-AB23-CD45-EF67',
    },
    variables: ({ body }) => ({ input: body }),
  }),
  route({
    method: 'DELETE',
    path: `${TASKS}/output-defaults/{defaultSimplyId}`,
    summary: 'Remove a task output default',
    description: 'Remove an output default (edit access to its collection)',
    operation: operation`mutation DeleteTaskOutputDefault($id: String!) { deleteTaskOutputDefault(defaultSimplyId: $id) }`,
    variables: ({ params }) => ({ id: params.defaultSimplyId }),
    respond: respond.deleted('defaultSimplyId'),
  }),
  // ---- end of record history and outputs ----
], EXTENSIONS);
