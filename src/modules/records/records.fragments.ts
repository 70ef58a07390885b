// The selections of records that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

export const DATA_RECORD = fragment('DataRecordFields', 'DataRecord', 'id dataRecordSimplyId dataCollectionSimplyId name fields isArchived createdAt updatedAt');

/** What REST `expand=collection,fieldDefinitions` adds; the operation declares both Boolean! variables. */
export const DATA_RECORD_EXPANSION = fragment(
  'DataRecordExpansion',
  'DataRecord',
  `collection @include(if: $expandCollection) {
     id name singularName pluralName archetype effectiveArchetype type enumDataCollectionTypeId fieldCount parentDataCollectionSimplyId dataRecordCalculatedNameFormula
   }
   fieldDefinitions @include(if: $expandFields) { dataFieldSimplyId title columnName dataType isRequired sortOrder config }`,
);

export const DATA_RECORD_WRITE_RESULT = fragment('DataRecordWriteResultFields', 'DataRecordWriteResult', selection`record { ${DATA_RECORD} } warnings`);

export const DATA_RECORD_BATCH_RESULT = fragment(
  'DataRecordBatchResultFields',
  'DataRecordBatchResult',
  selection`operation succeeded failed warnings results { index ok dataRecordSimplyId record { ${DATA_RECORD} } error { code status message details } }`,
);

export const DATA_RECORD_PAGE = fragment('DataRecordPageFields', 'DataRecordPage', selection`nodes { ${DATA_RECORD} } pagination { total limit offset hasMore }`);
