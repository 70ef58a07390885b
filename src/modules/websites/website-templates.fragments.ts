// The selections of website templates that the REST table and tests use.
import { fragment } from '../../app/graphql/fragments.ts';

const RELEASE = 'releaseSimplyId number releaseNotes pageCount applyAutoSites managedPublish backgroundTaskSimplyId createdAt';

export const WEBSITE_TEMPLATE = fragment(
  'TeamWebsiteTemplateFields',
  'TeamWebsiteTemplate',
  `id teamWebsiteTemplateSimplyId name description sourceWebsiteSimplyId status archivedAt latestReleaseNumber connectedWebsiteCount
   releases { ${RELEASE} } websites { websiteSimplyId templateSyncMode appliedReleaseNumber pendingReleaseNumber } createdAt updatedAt`,
);

export const WEBSITE_TEMPLATE_RELEASED = fragment('WebsiteTemplateReleasedFields', 'WebsiteTemplateReleased', `teamWebsiteTemplateSimplyId release { ${RELEASE} } autoWebsiteCount pendingWebsiteCount`);

const CONNECTION = 'websiteSimplyId teamWebsiteTemplateSimplyId connected templateSyncMode enumAppBrandId appliedReleaseNumber pendingReleaseNumber connectedAt';

export const WEBSITE_TEMPLATE_CONNECTION = fragment('WebsiteTemplateConnectionFields', 'WebsiteTemplateConnection', CONNECTION);

export const WEBSITE_TEMPLATE_APPLIED = fragment(
  'WebsiteTemplateAppliedFields',
  'WebsiteTemplateApplied',
  `connection { ${CONNECTION} } outcome { websiteSimplyId releaseNumber status pagesAdded pagesUpdated pagesUnchanged keptLocal detached removedFromTemplate deletedOnSite settings pagesPublished }`,
);

export const WEBSITE_PAGE_TEMPLATE_STATE = fragment('WebsitePageTemplateStateFields', 'WebsitePageTemplateState', 'pageSimplyId websiteSimplyId followsTemplate detachedAt');
