// Saved layouts, the layout catalog and detaching a synced layout → src/modules/websites/saved-layouts.schema.ts
// (docs/api/websites.md "Saved layouts"). EDITOR writes, VIEWER reads; the catalog needs either websites feature.
import { z } from 'zod';
import { operation } from '../../../src/app/graphql/fragments.ts';
import { WEBSITE_CATALOG_LAYOUT, WEBSITE_SAVED_LAYOUT } from '../../../src/modules/websites/saved-layouts.fragments.ts';
import { createSavedLayoutInput, SAVED_LAYOUT_EXAMPLE, updateSavedLayoutInput } from '../../../src/modules/websites/saved-layouts.input.ts';
import { WEBSITE_PAGE_DESIGN } from '../../../src/modules/websites/websites.fragments.ts';
import { route } from '../../route.ts';
import { actOn, getOne, updateOne } from '../../route-shapes.ts';

const LAYOUTS = '/v1/websites/{websiteSimplyId}/saved-layouts';
const LAYOUT = `${LAYOUTS}/{savedLayoutSimplyId}`;

export const websiteLayoutRoutes = [
  route({
    method: 'GET',
    path: LAYOUTS,
    summary: 'List a website’s saved layouts',
    description: 'Its saved layouts that are not archived, oldest first; designFormat (GRAPESJS_WEB or GRAPESJS_EMAIL) filters (VIEWER; websites:read)',
    operation: operation`query WebsiteSavedLayouts($id: String!, $designFormat: String) { websiteSavedLayouts(websiteSimplyId: $id, designFormat: $designFormat) { ${WEBSITE_SAVED_LAYOUT} } }`,
    query: z.strictObject({ designFormat: z.enum(['GRAPESJS_WEB', 'GRAPESJS_EMAIL']).optional().describe('GRAPESJS_WEB or GRAPESJS_EMAIL') }),
    variables: ({ params, query }) => ({ id: params.websiteSimplyId, ...(query as object) }),
  }),
  updateOne({
    method: 'POST',
    path: LAYOUTS,
    summary: 'Save a layout',
    description:
      '{ name, category, contentJson: { components, styles }, description?, designFormat? (GRAPESJS_WEB default, or GRAPESJS_EMAIL), syncMode? (SNAPSHOT default: pages get a copy; SYNCED: pages follow it) }: the content is checked like a page design (EDITOR; websites:write)',
    name: 'CreateWebsiteSavedLayout',
    arg: 'websiteSimplyId',
    inputType: 'JSON',
    body: createSavedLayoutInput,
    example: SAVED_LAYOUT_EXAMPLE,
    select: WEBSITE_SAVED_LAYOUT,
    status: 201,
  }),
  getOne({ path: LAYOUT, summary: 'Get a saved layout', description: 'One saved layout with its content; an archived one too, with archivedAt (VIEWER; websites:read)', name: 'WebsiteSavedLayout', select: WEBSITE_SAVED_LAYOUT }),
  updateOne({
    method: 'PATCH',
    path: LAYOUT,
    summary: 'Change a saved layout',
    description: 'Only the supplied fields change: name, category, description (null clears), contentJson. A SYNCED layout’s new content shows on the drafts of every page that uses it at once, and on their published pages from the next request (EDITOR; websites:write)',
    name: 'UpdateWebsiteSavedLayout',
    inputType: 'JSON',
    body: updateSavedLayoutInput,
    example: { name: 'Donate call-to-action (spring)', contentJson: SAVED_LAYOUT_EXAMPLE.contentJson },
    select: WEBSITE_SAVED_LAYOUT,
  }),
  actOn({ method: 'DELETE', path: LAYOUT, summary: 'Delete a saved layout', description: 'Archives it: it leaves the lists and cannot be inserted again; pages that use it keep showing it (EDITOR; websites:write)', name: 'DeleteWebsiteSavedLayout' }),
  route({
    method: 'GET',
    path: '/v1/website-layouts/catalog',
    summary: 'List the layout catalog',
    description: 'The platform’s ready-made, accessible layouts (hero, features, pricing, FAQ, contact, blog list, testimonials, call to action, footer), each { catalogLayoutId, name, category, description, designFormat, contentJson }; save one with POST …/saved-layouts to use it (TEAM_WEBSITES or TEAM_ADMIN_WEBSITES; websites:read)',
    operation: operation`query WebsiteLayoutCatalog { websiteLayoutCatalog { ${WEBSITE_CATALOG_LAYOUT} } }`,
  }),
  actOn({
    method: 'POST',
    path: '/v1/website-pages/{pageSimplyId}/synced-layouts/{savedLayoutSimplyId}/detach',
    summary: 'Detach a synced layout from a page',
    description: 'The page’s draft stops following the layout: its reference becomes a copy of the layout’s content, the page’s own from then on (a new draft revision); 409 WEBSITE_SYNCED_LAYOUT_NOT_ON_PAGE when the draft has no reference to it (EDITOR; websites:write)',
    name: 'DetachWebsitePageSyncedLayout',
    select: WEBSITE_PAGE_DESIGN,
  }),
];
