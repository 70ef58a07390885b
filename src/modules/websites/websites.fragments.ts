// The selections of this area's types that the REST table and tests use.
import { fragment, selection } from '../../app/graphql/fragments.ts';

/** a website with its settings */
export const WEBSITE = fragment(
  'WebsiteFields',
  'Website',
  `id websiteSimplyId name slug isPublished publishedUrl firstPublishedAt metaTitle metaDescription socialImageUrl faviconFileSimplyId
   themeSettings navigationJson headerDesignJson footerDesignJson headerFooterHasUnpublishedChanges headerFooterPublishedAt
   campaignChromeConfig campaignChromeHasUnpublishedChanges campaignChromePublishedAt googleAnalyticsMeasurementId
   defaultLanguageTagId availableLanguageTagIds redirectSettings restricted customDomain myRole members { userSimplyId role } pageCount createdAt updatedAt`,
);

/** a page: metadata, place in the tree, path and states (its design is read on its own) */
export const WEBSITE_PAGE = fragment(
  'WebsitePageFields',
  'WebsitePage',
  `id pageSimplyId websiteSimplyId title slug path parentPageSimplyId position isHomePage metaTitle metaDescription
   publishState reviewState draftRevision publishedRevision publishedAt createdAt updatedAt`,
);

/** a page's draft design */
export const WEBSITE_PAGE_DESIGN = fragment('WebsitePageDesignFields', 'WebsitePageDesign', 'pageSimplyId websiteSimplyId draftRevision publishedRevision design updatedAt');

/** a version of a page, with its design */
export const WEBSITE_PAGE_VERSION = fragment('WebsitePageVersionFields', 'WebsitePageVersion', 'id versionSimplyId pageSimplyId number kind label note draftRevision design createdByUserSimplyId createdAt');

/** a backup of a site (content on its detail only) */
export const WEBSITE_BACKUP = fragment('WebsiteBackupFields', 'WebsiteBackup', 'id websiteBackupSimplyId websiteSimplyId kind summary pageCount byteSize content createdByUserSimplyId createdAt');

/** a reply to a review comment */
export const WEBSITE_COMMENT_REPLY = fragment('WebsiteCommentReplyFields', 'WebsiteCommentReply', 'id replySimplyId commentSimplyId comment authorUserSimplyId createdAt');

/** a review comment with its replies */
export const WEBSITE_COMMENT = fragment(
  'WebsiteCommentFields',
  'WebsiteComment',
  selection`id commentSimplyId pageSimplyId websiteSimplyId xPercent yPixels comment targetDevice grapesComponentId resolved resolvedAt resolvedByUserSimplyId
   authorUserSimplyId replies { ${WEBSITE_COMMENT_REPLY} } createdAt updatedAt`,
);
