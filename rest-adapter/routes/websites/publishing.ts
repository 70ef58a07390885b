// Publishing → src/modules/websites/publishing.schema.ts (docs/api/websites.md "Publishing and
// review", "Versions", "Publishing a site", "Backups").
import { z } from 'zod';
import { operation, PAGINATION } from '../../../src/app/graphql/fragments.ts';
import { checkpointInput, createBackupInput, publishInput, requestChangesInput, versionMetadataInput } from '../../../src/modules/websites/publishing.input.ts';
import { WEBSITE, WEBSITE_BACKUP, WEBSITE_PAGE, WEBSITE_PAGE_VERSION } from '../../../src/modules/websites/websites.fragments.ts';
import { respond, route } from '../../route.ts';
import { actOn, getOne, updateOne } from '../../route-shapes.ts';
import { queryInt } from '../../schemas.ts';

const SITE = '/v1/websites/{websiteSimplyId}';
const PAGE = '/v1/website-pages/{pageSimplyId}';
const VERSION = '/v1/website-page-versions/{versionSimplyId}';
const BACKUP = '/v1/website-backups/{websiteBackupSimplyId}';
const paging = z.strictObject({ limit: queryInt().describe('1-100, default 25'), offset: queryInt().describe('0 or more') });

const pageAction = (path: string, summary: string, description: string, name: string, body?: z.ZodType, example?: unknown) =>
  body
    ? updateOne({ method: 'POST', path, summary, description, name, inputType: 'JSON', body, example, select: WEBSITE_PAGE })
    : actOn({ method: 'POST', path, summary, description, name, select: WEBSITE_PAGE });

export const websitePublishingRoutes = [
  pageAction(`${PAGE}/publish`, 'Publish a page', '{ summary? }: the published design becomes the draft, a PUBLISHED version is kept, the review state returns to NONE (EDITOR; websites:write)', 'PublishWebsitePage', publishInput, { summary: 'Spring update' }),
  pageAction(`${PAGE}/submit-for-review`, 'Submit a page for review', 'NONE or CHANGES_REQUESTED → IN_REVIEW (EDITOR; websites:write)', 'SubmitWebsitePageForReview'),
  pageAction(`${PAGE}/request-changes`, 'Request changes on a page', '{ message? }: IN_REVIEW → CHANGES_REQUESTED (REVIEWER; websites:write)', 'RequestWebsitePageChanges', requestChangesInput, { message: 'Please shorten the intro' }),

  route({
    method: 'GET',
    path: `${PAGE}/versions`,
    summary: 'List a page’s versions',
    description: 'Newest first; limit 1-100 (default 25), offset (VIEWER; websites:read)',
    operation: operation([`query WebsitePageVersions($id: String!, $limit: Int, $offset: Int) { websitePageVersions(pageSimplyId: $id, limit: $limit, offset: $offset) { nodes { `, ' } pagination { ', ' } } }'], WEBSITE_PAGE_VERSION, PAGINATION),
    query: paging,
    variables: ({ params, query }) => ({ id: params.pageSimplyId, ...(query as object) }),
    respond: respond.page,
  }),
  updateOne({
    method: 'POST',
    path: `${PAGE}/versions`,
    summary: 'Save a checkpoint of a page',
    description: '{ label?, note? }: a CHECKPOINT version of the draft as it is (EDITOR; websites:write)',
    name: 'CreateWebsitePageVersion',
    inputType: 'JSON',
    body: checkpointInput,
    example: { label: 'Before the redesign' },
    select: WEBSITE_PAGE_VERSION,
    status: 201,
  }),
  getOne({ path: VERSION, summary: 'Get a page version', description: 'With its design (VIEWER; websites:read)', name: 'WebsitePageVersion', select: WEBSITE_PAGE_VERSION }),
  updateOne({
    method: 'PATCH',
    path: VERSION,
    summary: 'Label a page version',
    description: '{ label?, note? } (null clears); the design never changes (EDITOR; websites:write)',
    name: 'UpdateWebsitePageVersion',
    inputType: 'JSON',
    body: versionMetadataInput,
    example: { label: 'Approved by the board' },
    select: WEBSITE_PAGE_VERSION,
  }),
  actOn({
    method: 'POST',
    path: `${VERSION}/restore`,
    summary: 'Restore a page version onto the draft',
    description: 'The draft becomes the version’s design (a BEFORE_RESTORE version keeps the draft it replaces); never publishes (EDITOR; websites:write)',
    name: 'RestoreWebsitePageVersion',
    select: WEBSITE_PAGE,
  }),

  route({
    method: 'GET',
    path: `${SITE}/publish-readiness`,
    summary: 'Check a website’s publish readiness',
    description: 'An advisory checklist: BLOCKER, WARNING and INFO items (VIEWER; websites:read)',
    operation: operation`query WebsitePublishReadiness($id: String!) { websitePublishReadiness(websiteSimplyId: $id) { websiteSimplyId ready isPublished needsActivation items { code severity message pageSimplyId } } }`,
    variables: ({ params }) => ({ id: params.websiteSimplyId }),
  }),
  route({
    method: 'POST',
    path: `${SITE}/publish-activation`,
    summary: 'Get a website activation token',
    description: 'A short-lived activationToken (10 minutes, for the caller and this site) that PUT isPublished: true needs the first time (OWNER; websites:write)',
    operation: operation`mutation CreateWebsitePublishActivation($id: String!) { createWebsitePublishActivation(websiteSimplyId: $id) { websiteSimplyId activationToken expiresAt } }`,
    variables: ({ params }) => ({ id: params.websiteSimplyId }),
    status: 201,
  }),
  actOn({ method: 'POST', path: `${SITE}/header-footer/publish`, summary: 'Publish the header and footer', description: 'The published header and footer become the drafts (OWNER; websites:write)', name: 'PublishWebsiteHeaderFooter', select: WEBSITE }),
  actOn({
    method: 'POST',
    path: `${SITE}/campaign-chrome/publish`,
    summary: 'Publish the campaign chrome',
    description: 'Checks the version 2 draft against the site as it is (deleted pages or wizards block it: 400 naming each), keeps an AUTOMATIC backup, publishes it; an unpublished site stays unpublished (OWNER; websites:write)',
    name: 'PublishWebsiteCampaignChrome',
    select: WEBSITE,
  }),

  updateOne({
    method: 'POST',
    path: `${SITE}/backups`,
    summary: 'Back up a website',
    description: '{ summary? }: a snapshot of the content settings and every page (EDITOR; websites:write)',
    name: 'CreateWebsiteBackup',
    inputType: 'JSON',
    body: createBackupInput,
    example: { summary: 'Before the spring redesign' },
    select: WEBSITE_BACKUP,
    status: 201,
  }),
  route({
    method: 'GET',
    path: `${SITE}/backups`,
    summary: 'List a website’s backups',
    description: 'Newest first, without their content; limit 1-100 (default 25), offset (VIEWER; websites:read)',
    operation: operation([`query WebsiteBackups($id: String!, $limit: Int, $offset: Int) { websiteBackups(websiteSimplyId: $id, limit: $limit, offset: $offset) { nodes { `, ' } pagination { ', ' } } }'], WEBSITE_BACKUP, PAGINATION),
    query: paging,
    variables: ({ params, query }) => ({ id: params.websiteSimplyId, ...(query as object) }),
    respond: respond.page,
  }),
  getOne({ path: BACKUP, summary: 'Get a website backup', description: 'With its content (VIEWER; websites:read)', name: 'WebsiteBackup', select: WEBSITE_BACKUP }),
  actOn({
    method: 'POST',
    path: `${BACKUP}/restore`,
    summary: 'Restore a website backup',
    description: 'Puts the backup’s content back as drafts, after an AUTOMATIC backup of what it replaces (answered as `replaced`); what is published stays until published again (OWNER; websites:write)',
    name: 'RestoreWebsiteBackup',
    select: 'restored { websiteBackupSimplyId } replaced { websiteBackupSimplyId websiteSimplyId kind summary pageCount byteSize createdByUserSimplyId createdAt }',
  }),
];
