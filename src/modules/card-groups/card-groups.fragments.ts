// The selections of this area's types that the REST table and tests use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

/** a card of a group as administration sees it */
export const DATA_CARD_CONFIG = fragment(
  'DataCardConfigFields',
  'DataCardConfig',
  `position kind title dataFieldSimplyIds dataFieldSimplyId direction targetDataCollectionSimplyId columnFieldSimplyIds rowLimit
   problems { code dataFieldSimplyId message }`,
);

/** a card group of a collection (administration) */
export const DATA_CARD_GROUP = fragment(
  'DataCardGroupFields',
  'DataCardGroup',
  selection`id dataCardGroupSimplyId dataCollectionSimplyId name position cards { ${DATA_CARD_CONFIG} } createdAt updatedAt`,
);

/** a record's card group in its list: the cards the caller will see, no values */
export const DATA_RECORD_CARD_GROUP = fragment(
  'DataRecordCardGroupFields',
  'DataRecordCardGroup',
  `id dataCardGroupSimplyId dataRecordSimplyId dataCollectionSimplyId name position
   cards { position kind title dataFieldSimplyIds dataFieldSimplyId direction targetDataCollectionSimplyId columnFieldSimplyIds }`,
);

/** a card group rendered on a record */
export const DATA_RECORD_CARD_GROUP_RENDER = fragment(
  'DataRecordCardGroupRenderFields',
  'DataRecordCardGroupRender',
  `id dataCardGroupSimplyId dataRecordSimplyId dataCollectionSimplyId name position
   cards {
     position kind title
     fields { dataFieldSimplyId title columnName dataType value }
     dataFieldSimplyId
     columns { dataFieldSimplyId title columnName dataType }
     rows { id dataRecordSimplyId dataCollectionSimplyId name fields isArchived createdAt updatedAt }
     totalRows hasMoreRows
     multiDataRecordContext {
       dataFieldSimplyId direction relationDataType targetDataCollectionSimplyId
       creationAvailability { canCreate reason blockingFields { dataFieldSimplyId title access } }
       fieldSettings { prePopulateFieldSimplyId prePopulateFieldCompositeKey }
     }
   }`,
);
