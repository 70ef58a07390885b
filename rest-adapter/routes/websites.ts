// Websites → src/modules/websites/websites.schema.ts (docs/api/websites.md). Signed-in users, or
// OAuth tokens they consented to with websites:read (reads) or websites:write (writes); API keys and
// session tokens: 403 IDP_REQUIRED. TEAM_WEBSITES or TEAM_ADMIN_WEBSITES, and a role on the site.
import { operation } from '../../src/app/graphql/fragments.ts';
import { createPageInput, reorderPagesInput, updatePageInput } from '../../src/modules/websites/pages.input.ts';
import { WEBSITE, WEBSITE_PAGE } from '../../src/modules/websites/websites.fragments.ts';
import { createWebsiteInput, updateWebsiteInput } from '../../src/modules/websites/websites.input.ts';
import { defineRoutes, route } from '../route.ts';
import { actOn, createOne, getOne, updateOne } from '../route-shapes.ts';
import { websiteDesignRoutes } from './websites/designs.ts';
import { websitePublishingRoutes } from './websites/publishing.ts';
import { websiteServingRoutes } from './websites/serving.ts';
import { websiteCommentRoutes } from './websites/comments.ts';
import { websiteAccessAreaRoutes } from './websites/access-areas.ts';
import { websiteStudioRoutes } from './websites/studio.ts';
import { websiteImportRoutes } from './websites/import.ts';
import { websiteLayoutRoutes } from './websites/layouts.ts';
import { websiteAiRoutes } from './websites/ai.ts';
import { websiteTemplateRoutes } from './websites/templates.ts';

const SITE = '/v1/websites/{websiteSimplyId}';
const PAGE = '/v1/website-pages/{pageSimplyId}';

const SETTINGS_EXAMPLE = {
  name: 'Friends of the Park',
  metaTitle: 'Friends of the Park',
  navigationJson: { version: 2, menus: [{ name: 'Main', items: [{ type: 'PAGE', pageSimplyId: 'wpg-AB23-CD45-EF67', label: 'Home' }, { type: 'LINK', url: 'https://example.org/donate', label: 'Donate' }] }] },
  googleAnalyticsMeasurementId: 'G-ABC123DEF4',
  defaultLanguageTagId: 'en',
  availableLanguageTagIds: ['en', 'de'],
  members: [{ userSimplyId: 'usr-AB23-CD45-EF67', role: 'EDITOR' }],
};

export const websiteRoutes = defineRoutes([
  route({
    method: 'GET',
    path: '/v1/websites',
    summary: 'List websites',
    description: 'The websites the caller has a role on, newest first, each with the caller’s role (websites:read)',
    operation: operation`query Websites { websites { ${WEBSITE} } }`,
  }),
  createOne({
    path: '/v1/websites',
    summary: 'Create a website',
    description: '{ name, slug? }: slug (3-63 lower-case letters, digits, inner hyphens; unique on the platform) is made from the name when absent; the creator becomes its OWNER (TEAM_WEBSITES or TEAM_ADMIN_WEBSITES at edit level; websites:write)',
    name: 'CreateWebsite',
    inputType: 'JSON',
    body: createWebsiteInput,
    example: { name: 'Friends of the Park', slug: 'friends-of-the-park' },
    select: WEBSITE,
  }),
  getOne({ path: SITE, summary: 'Get a website', description: 'Its settings, members and the caller’s role (VIEWER; websites:read)', name: 'Website', select: WEBSITE }),
  updateOne({
    method: 'PUT',
    path: SITE,
    summary: 'Change a website',
    description: 'Only the supplied settings change (OWNER; websites:write): name, slug, meta fields, faviconFileSimplyId (null clears), themeSettings, navigationJson (version 2, 1-20 menus; navigationSettings is its deprecated alias), headerDesignJson, footerDesignJson, campaignChromeConfig (version 2, up to ten entries), googleAnalyticsMeasurementId, languages, redirectSettings, restricted, members',
    name: 'UpdateWebsite',
    inputType: 'JSON',
    body: updateWebsiteInput,
    example: SETTINGS_EXAMPLE,
    select: WEBSITE,
  }),
  actOn({ method: 'DELETE', path: SITE, summary: 'Delete a website', description: 'The website, its pages and everything kept for them (OWNER; websites:write)', name: 'DeleteWebsite' }),

  route({
    method: 'GET',
    path: `${SITE}/pages`,
    summary: 'List pages',
    description: 'Every page of the site in tree order (parents before children, siblings by position), with paths and states (VIEWER; websites:read)',
    operation: operation`query WebsitePages($id: String!) { websitePages(websiteSimplyId: $id) { ${WEBSITE_PAGE} } }`,
    variables: ({ params }) => ({ id: params.websiteSimplyId }),
  }),
  updateOne({
    method: 'POST',
    path: `${SITE}/pages`,
    summary: 'Create a page',
    description: '{ title, slug?, parentPageSimplyId?, position?, isHomePage?, metaTitle?, metaDescription? }: the draft design starts empty; the first page becomes the home page (EDITOR; websites:write)',
    name: 'CreateWebsitePage',
    arg: 'websiteSimplyId',
    inputType: 'JSON',
    body: createPageInput,
    example: { title: 'About us', parentPageSimplyId: null },
    select: WEBSITE_PAGE,
    status: 201,
  }),
  updateOne({
    method: 'PUT',
    path: `${SITE}/pages/reorder`,
    summary: 'Reorder pages',
    description: '{ tree: [{ pageSimplyId, children }] }: the whole page tree, every page once; answers the pages in their new order (EDITOR; websites:write)',
    name: 'ReorderWebsitePages',
    arg: 'websiteSimplyId',
    inputType: 'JSON',
    body: reorderPagesInput,
    example: { tree: [{ pageSimplyId: 'wpg-AB23-CD45-EF67' }, { pageSimplyId: 'wpg-GH89-JK23-MN45', children: [{ pageSimplyId: 'wpg-QR67-ST89-UV23' }] }] },
    select: WEBSITE_PAGE,
  }),
  getOne({ path: PAGE, summary: 'Get a page', description: 'Metadata, path, place in the tree, publish and review states (VIEWER; websites:read)', name: 'WebsitePage', select: WEBSITE_PAGE }),
  updateOne({
    method: 'PUT',
    path: PAGE,
    summary: 'Change a page',
    description: 'Only the supplied fields change: title, slug, parentPageSimplyId (moves it, last among its new siblings), isHomePage: true, metaTitle, metaDescription, isPublished: false (takes it off the published site) (EDITOR; websites:write)',
    name: 'UpdateWebsitePage',
    inputType: 'JSON',
    body: updatePageInput,
    example: { title: 'About the park', slug: 'about' },
    select: WEBSITE_PAGE,
  }),
  actOn({ method: 'DELETE', path: PAGE, summary: 'Delete a page', description: 'A page with pages under it is refused (409 WEBSITE_PAGE_HAS_CHILDREN) (EDITOR; websites:write)', name: 'DeleteWebsitePage' }),
  ...websiteDesignRoutes,
  ...websitePublishingRoutes,
  ...websiteServingRoutes,
  ...websiteCommentRoutes,
  ...websiteAccessAreaRoutes,
  ...websiteStudioRoutes,
  ...websiteImportRoutes,
  ...websiteLayoutRoutes,
  ...websiteAiRoutes,
  ...websiteTemplateRoutes,
]);
