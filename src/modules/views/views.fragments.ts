// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

/** A view in lists: no config. */
export const DATA_VIEW_SUMMARY = fragment('DataViewSummaryFields', 'DataView', `id name description dataCollectionSimplyId enumDataViewTypeId isPublished`);

export const DATA_VIEW = fragment('DataViewFields', 'DataView', selection`${DATA_VIEW_SUMMARY} config { columns filters sortOrder { field direction } }`);

export const DATA_VIEW_RECORD = fragment('DataViewRecordFields', 'DataViewRecord', `id dataCollectionSimplyId name isArchived createdAt updatedAt`);

// --- administration (views.admin.schema.ts)

const LINK_BASE = 'id dataFieldSimplyId fieldExists fieldTitle fieldDataType label';
export const DATA_VIEW_DISPLAY_LINK = fragment('DataViewDisplayFieldLinkFields', 'DataViewDisplayFieldLink', `${LINK_BASE} aggregation`);
export const DATA_VIEW_FILTER_LINK = fragment('DataViewFilterFieldLinkFields', 'DataViewFilterFieldLink', `${LINK_BASE} defaultOperator`);
export const DATA_VIEW_CALENDAR_LINK = fragment('DataViewCalendarDateInfoFieldLinkFields', 'DataViewCalendarDateInfoFieldLink', `${LINK_BASE} endDataFieldSimplyId color`);

/** A view in the admin list: no config, no links, their counts. */
export const DATA_VIEW_ADMIN_SUMMARY = fragment(
  'DataViewAdminSummaryFields',
  'DataViewAdmin',
  'id name description internalName dataCollectionSimplyId enumDataViewTypeId isPublished displayFieldCount filterFieldCount calendarDateInfoFieldCount createdAt updatedAt',
);

/** The admin detail: every setting and link. */
export const DATA_VIEW_ADMIN = fragment(
  'DataViewAdminFields',
  'DataViewAdmin',
  selection`id name description internalName dataCollectionSimplyId enumDataViewTypeId isPublished
    config { columns filters sortOrder { field direction } grouping { field direction } calendar { defaultMode weekStartsOn timeZone } map { locationFieldSimplyId defaultZoom } }
    displayFieldLinks { ${DATA_VIEW_DISPLAY_LINK} } filterFieldLinks { ${DATA_VIEW_FILTER_LINK} } calendarDateInfoFieldLinks { ${DATA_VIEW_CALENDAR_LINK} }
    createdAt updatedAt`,
);

export const DATA_VIEW_PICKER_ITEM = fragment('DataViewPickerItemFields', 'DataViewPickerItem', 'id name internalName enumDataViewTypeId isPublished');

const LINK_ELIGIBILITY = fragment(
  'DataViewLinkEligibilityFields',
  'DataViewLinkEligibility',
  'isAvailable unavailableReason { code message } fields { dataFieldSimplyId title dataType isEligible reason { code message } }',
);

export const DATA_VIEW_ELIGIBLE_FIELDS = fragment(
  'DataViewEligibleFieldsFields',
  'DataViewEligibleFields',
  selection`dataViewSimplyId enumDataViewTypeId displayFieldLinks { ${LINK_ELIGIBILITY} } filterFieldLinks { ${LINK_ELIGIBILITY} } calendarDateInfoFieldLinks { ${LINK_ELIGIBILITY} }`,
);

export const DATA_VIEW_SHARE_READINESS = fragment(
  'DataViewShareReadinessFields',
  'DataViewShareReadiness',
  'dataViewSimplyId enumDataViewTypeId isPublished canPublish canShare blockers { code message field } warnings { code message field } shareTargets { tokenType isAvailable blockers { code message field } hasToken isServing }',
);

export const DATA_VIEW_INTERNAL_NAME_CHECK = fragment('DataViewInternalNameCheckFields', 'DataViewInternalNameCheck', 'internalName isValid isAvailable problems { code message } suggestion');

// --- sharing (views.public-tokens.schema.ts)

export const DATA_VIEW_INTERNAL_TOKEN = fragment('DataViewInternalTokenFields', 'DataViewInternalToken', 'dataViewSimplyId url expiresAt expiresInSeconds');

const TOKEN_META = 'dataViewSimplyId tokenType purpose exists tokenHint maskedUrl allowedOrigins createdAt createdBy { kind id } lastUsedAt isServing';
export const DATA_VIEW_PUBLIC_TOKEN = fragment('DataViewPublicAccessTokenFields', 'DataViewPublicAccessToken', TOKEN_META);
export const DATA_VIEW_ISSUED_PUBLIC_TOKEN = fragment('DataViewIssuedPublicAccessTokenFields', 'DataViewIssuedPublicAccessToken', `${TOKEN_META} token url rotated`);
