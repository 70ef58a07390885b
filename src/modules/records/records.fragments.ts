// The selections of records that other faces (REST tables, tests) use.
import { fragment, selection, PAGINATION } from '../../app/graphql/fragments.ts';
import { DATA_COLLECTION_BRIEF, DATA_FIELD_DEFINITION } from '../collections/index.ts';

export const DATA_RECORD = fragment('DataRecordFields', 'DataRecord', 'id dataRecordSimplyId dataCollectionSimplyId name fields isArchived createdAt updatedAt');

/** What REST `expand=collection,fieldDefinitions` adds; the operation declares both Boolean! variables. */
export const DATA_RECORD_EXPANSION = fragment(
  'DataRecordExpansion',
  'DataRecord',
  selection`collection @include(if: $expandCollection) { ${DATA_COLLECTION_BRIEF} }
   fieldDefinitions @include(if: $expandFields) { ${DATA_FIELD_DEFINITION} }`,
);

export const DATA_RECORD_WRITE_RESULT = fragment('DataRecordWriteResultFields', 'DataRecordWriteResult', selection`record { ${DATA_RECORD} } warnings`);

export const DATA_RECORD_BATCH_RESULT = fragment(
  'DataRecordBatchResultFields',
  'DataRecordBatchResult',
  selection`operation succeeded failed warnings results { index ok dataRecordSimplyId record { ${DATA_RECORD} } error { code status message details } }`,
);

export const DATA_RECORD_PAGE = fragment('DataRecordPageFields', 'DataRecordPage', selection`nodes { ${DATA_RECORD} } pagination { ${PAGINATION} }`);
