// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

/** A view in lists: no config. */
export const DATA_VIEW_SUMMARY = fragment('DataViewSummaryFields', 'DataView', `id name description dataCollectionSimplyId enumDataViewTypeId isPublished`);

export const DATA_VIEW = fragment('DataViewFields', 'DataView', selection`${DATA_VIEW_SUMMARY} config { columns filters sortOrder { field direction } }`);

export const DATA_VIEW_RECORD = fragment('DataViewRecordFields', 'DataViewRecord', `id dataCollectionSimplyId name isArchived createdAt updatedAt`);
