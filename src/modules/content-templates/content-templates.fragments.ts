// The selections of this area's types that other faces (REST tables, tests) use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

/** A list entry. */
export const CONTENT_TEMPLATE = fragment(
  'ContentTemplateFields',
  'ContentTemplate',
  `id contentTemplateSimplyId templateFormat name description textContent hasDesign hasDocumentSettings usageTypes deliveryMethod
   dataCollectionSimplyId templateScope ownerTeamUserLinkSimplyId archivedAt createdAt updatedAt`,
);

export const DOCUMENT_SETTINGS = fragment('DocumentSettingsFields', 'DocumentSettings', 'pageSize orientation marginsMm { top right bottom left } headerHtml footerHtml');

/** A list entry and the design. */
export const CONTENT_TEMPLATE_DETAIL = fragment(
  'ContentTemplateDetailFields',
  'ContentTemplate',
  selection`${CONTENT_TEMPLATE} designJson designHTML documentSettings { ${DOCUMENT_SETTINGS} }`,
);

/** An entry of a collection's listing. */
export const COLLECTION_CONTENT_TEMPLATE = fragment('CollectionContentTemplateFields', 'ContentTemplate', selection`${CONTENT_TEMPLATE} inherited`);

export const CONTENT_TEMPLATE_READINESS = fragment(
  'ContentTemplateReadinessFields',
  'ContentTemplateReadiness',
  'contentTemplateSimplyId ready issues { severity code message field }',
);

const USAGE_COLLECTION = 'dataCollectionSimplyId name inherited activeMembershipCount';
export const CONTENT_TEMPLATE_USAGE = fragment(
  'ContentTemplateUsageFields',
  'ContentTemplateUsage',
  `contentTemplateSimplyId assignedCollection { ${USAGE_COLLECTION} } inheritingCollections { ${USAGE_COLLECTION} } membershipCount
   wrappers { usageType } signingProfiles recentGenerationEvents`,
);

export const CONTENT_TEMPLATE_PREVIEW = fragment('ContentTemplatePreviewFields', 'ContentTemplatePreview', 'html bodyHtml headerHtml footerHtml');

export const CONTENT_TEMPLATE_LINK = fragment('ContentTemplateLinkFields', 'ContentTemplateLink', 'dataCollectionSimplyId contentTemplateSimplyId');
