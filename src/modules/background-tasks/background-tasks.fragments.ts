// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

const TASK_FIELDS = `backgroundTaskSimplyId enumBackgroundTaskTypeId status progress result errorCount errorCountUnacknowledged unacknowledgedErrorCount
  canDownloadResult cancelRequested createdAt startedAt completedAt lastUpdatedAt clearedAt`;
const ERROR_FIELDS = 'backgroundTaskErrorSimplyId errorType errorMessage errorContext occurredAt acknowledgedAt';

/** A list entry (result is always null). */
export const BACKGROUND_TASK_SUMMARY = fragment('BackgroundTaskSummaryFields', 'BackgroundTask', TASK_FIELDS);

/** The detail: the list fields, the sanitized result and the unacknowledged errors. */
export const BACKGROUND_TASK = fragment('BackgroundTaskFields', 'BackgroundTask', `${TASK_FIELDS} errors { ${ERROR_FIELDS} }`);

export const BACKGROUND_TASK_PAGE = fragment('BackgroundTaskPageFields', 'BackgroundTaskPage', selection`nodes { ${BACKGROUND_TASK_SUMMARY} } canViewBackgroundTasks total limit offset`);

export const TASK_ERROR_ACKNOWLEDGED = fragment('BackgroundTaskErrorAcknowledgedFields', 'BackgroundTaskErrorAcknowledged', 'success backgroundTaskErrorSimplyId acknowledgedAt unacknowledgedCount');

export const TASK_RESULT_DOWNLOAD = fragment('BackgroundTaskResultDownloadFields', 'BackgroundTaskResultDownload', 'url expiresIn expiresAt filename contentType');
