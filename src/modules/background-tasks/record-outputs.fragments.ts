// The selections of record history, record outputs and output defaults that other faces (the REST
// table, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

const OUTPUT_FIELDS = `recordOutputSimplyId outputKey outputKind status destinationWriteStatus destinationWriteMode destinationDataFieldSimplyId result
  file { fileSimplyId filename mimeType } canDownload createdAt updatedAt`;

export const RECORD_OUTPUT = fragment('RecordTaskOutputFields', 'RecordTaskOutput', OUTPUT_FIELDS);

export const RECORD_HISTORY_ENTRY = fragment(
  'RecordHistoryEntryFields',
  'RecordHistoryEntry',
  selection`recordTaskLinkSimplyId backgroundTaskSimplyId enumBackgroundTaskTypeId taskStatus recordStatus relationType outputs { ${RECORD_OUTPUT} } createdAt completedAt`,
);

export const RECORD_HISTORY = fragment(
  'BackgroundTaskRecordHistoryFields',
  'BackgroundTaskRecordHistory',
  selection`dataRecordSimplyId dataCollectionSimplyId tasks { ${RECORD_HISTORY_ENTRY} } total limit offset`,
);

export const RECORD_OUTPUT_DOWNLOAD = fragment('RecordOutputDownloadFields', 'RecordOutputDownload', 'recordOutputSimplyId fileSimplyId url expiresIn expiresAt filename contentType');

export const TASK_OUTPUT_DEFAULT = fragment(
  'TaskOutputDefaultFields',
  'TaskOutputDefault',
  'defaultSimplyId dataCollectionSimplyId enumBackgroundTaskTypeId outputKey sourceContentTemplateSimplyId dataFieldSimplyId writeMode isEnabled createdAt updatedAt',
);

export const ELIGIBLE_OUTPUT_DESTINATIONS = fragment(
  'EligibleOutputDestinationsFields',
  'EligibleOutputDestinations',
  selection`dataCollectionSimplyId enumBackgroundTaskTypeId outputKey sourceContentTemplateSimplyId
    destinations { dataFieldSimplyId title columnName dataType writeModes isDefault } currentDefault { ${TASK_OUTPUT_DEFAULT} }`,
);
