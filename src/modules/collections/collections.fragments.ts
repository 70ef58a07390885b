// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

export const DATA_FIELD = fragment('DataFieldFields', 'DataField', `id dataFieldSimplyId title columnName dataType isRequired sortOrder config createdAt updatedAt`);

/** A collection in lists: no fields, no formula or criteria. */
export const DATA_COLLECTION_SUMMARY = fragment(
  'DataCollectionSummaryFields',
  'DataCollection',
  `id dataCollectionSimplyId name singularName pluralName archetype effectiveArchetype type enumDataCollectionTypeId
   fieldCount recordCount parentDataCollectionSimplyId isArchived createdAt updatedAt`,
);

/** A collection read alone: the summary, its display-name formula, SMART criteria and readable fields. */
export const DATA_COLLECTION = fragment(
  'DataCollectionFields',
  'DataCollection',
  selection`${DATA_COLLECTION_SUMMARY} dataRecordCalculatedNameFormula filterCriteria fields { ${DATA_FIELD} }`,
);

export const CREATE_MENU = fragment(
  'DataCollectionCreateMenuFields',
  'DataCollectionCreateMenu',
  selection`collection { ${DATA_COLLECTION_SUMMARY} } fields { ${DATA_FIELD} } canCreate reasons blockingFields { dataFieldSimplyId title access }`,
);

/** A collection as a record's `expand=collection` shows it: identity and shape, no counts or fields. */
export const DATA_COLLECTION_BRIEF = fragment(
  'DataCollectionBriefFields',
  'DataCollection',
  `id name singularName pluralName archetype effectiveArchetype type enumDataCollectionTypeId fieldCount parentDataCollectionSimplyId dataRecordCalculatedNameFormula`,
);

/** A field as a record's `expand=fieldDefinitions` shows it. */
export const DATA_FIELD_DEFINITION = fragment('DataFieldDefinitionFields', 'DataField', `dataFieldSimplyId title columnName dataType isRequired sortOrder config`);

/** A collection's whole administrative configuration (admin-detail and the routes that change it). */
export const DATA_COLLECTION_ADMIN_DETAIL = fragment(
  'DataCollectionAdminDetailFields',
  'DataCollectionAdminDetail',
  `id dataCollectionSimplyId name singularName pluralName archetype effectiveArchetype type enumDataCollectionTypeId
   parentDataCollectionSimplyId dataRecordCalculatedNameFormula filterCriteria isArchived fieldCount recordCount createdAt updatedAt
   fields { id dataFieldSimplyId title columnName dataType isRequired sortOrder config isOwnField description
            display { label helpText placeholder hidden width position } createdAt updatedAt }`,
);

export const SMART_MEMBERSHIP_PREVIEW = fragment(
  'SmartMembershipPreviewFields',
  'SmartMembershipPreview',
  `id dataCollectionSimplyId sourceDataCollectionSimplyId filterCriteria sourceRecordCount matchingRecordCount currentMemberCount
   wouldAddCount wouldRemoveCount sample { dataRecordSimplyId calculatedName }`,
);

export const FIELD_DESCRIPTION_SUGGESTIONS = fragment(
  'DataFieldDescriptionSuggestionsFields',
  'DataFieldDescriptionSuggestions',
  `id dataCollectionSimplyId language suggestions { dataFieldSimplyId columnName title dataType currentDescription suggestedDescription }`,
);
