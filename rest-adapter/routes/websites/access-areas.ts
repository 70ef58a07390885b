// Access areas → src/modules/websites/access-areas.schema.ts (docs/api/websites.md "Access areas"):
// gated sections of a site, their root pages and who they let in. OWNER writes, VIEWER reads.
import { operation } from '../../../src/app/graphql/fragments.ts';
import { ACCESS_AREA_EXAMPLE, createAccessAreaInput, createRootPageAreaInput, updateAccessAreaInput } from '../../../src/modules/websites/access-areas.input.ts';
import { WEBSITE_ACCESS_AREA } from '../../../src/modules/websites/access-areas.fragments.ts';
import { route } from '../../route.ts';
import { updateOne } from '../../route-shapes.ts';

const SITE = '/v1/websites/{websiteSimplyId}';

export const websiteAccessAreaRoutes = [
  route({
    method: 'GET',
    path: `${SITE}/access-areas`,
    summary: 'List a website’s access areas',
    description: 'Its gated sections, oldest first, each with its root pages (and their paths), who it lets in, its sign-in message and whether it is enabled (VIEWER; websites:read)',
    operation: operation`query WebsiteAccessAreas($id: String!) { websiteAccessAreas(websiteSimplyId: $id) { ${WEBSITE_ACCESS_AREA} } }`,
    variables: ({ params }) => ({ id: params.websiteSimplyId }),
  }),
  updateOne({
    method: 'POST',
    path: `${SITE}/access-areas`,
    summary: 'Create an access area',
    description:
      '{ name, rootPageSimplyIds, admits: [{ dataCollectionSimplyId, filters? }], signInMessage?, enabled? }: the root pages and every page below them are served only to signed-in constituents whose record meets one rule (a live member of the collection meeting the record search filters); a page is the root of at most one area (409 WEBSITE_ACCESS_AREA_PAGE_TAKEN) (OWNER; websites:write)',
    name: 'CreateWebsiteAccessArea',
    arg: 'websiteSimplyId',
    inputType: 'JSON',
    body: createAccessAreaInput,
    example: ACCESS_AREA_EXAMPLE,
    select: WEBSITE_ACCESS_AREA,
    status: 201,
  }),
  updateOne({
    method: 'POST',
    path: `${SITE}/access-areas/root-page`,
    summary: 'Create an access area and root page',
    description: '{ name, admits, signInMessage?, enabled?, page: { title, slug? } }: a new root page (last at the top level, empty draft) and an area covering it, in one step (OWNER; websites:write)',
    name: 'CreateWebsiteAccessAreaRootPage',
    arg: 'websiteSimplyId',
    inputType: 'JSON',
    body: createRootPageAreaInput,
    example: { name: 'Members', admits: ACCESS_AREA_EXAMPLE.admits, page: { title: 'Members', slug: 'members' } },
    select: WEBSITE_ACCESS_AREA,
    status: 201,
  }),
  route({
    method: 'GET',
    path: `${SITE}/access-areas/effective/{pageSimplyId}`,
    summary: 'Get the access area of a page',
    description: 'The enabled area that applies to the page: the one attached to the page itself, else to its nearest ancestor; data is null when the page is public (VIEWER; websites:read)',
    operation: operation`query WebsiteEffectiveAccessArea($id: String!, $page: String!) { websiteEffectiveAccessArea(websiteSimplyId: $id, pageSimplyId: $page) { ${WEBSITE_ACCESS_AREA} } }`,
    variables: ({ params }) => ({ id: params.websiteSimplyId, page: params.pageSimplyId }),
  }),
  updateOne({
    method: 'PUT',
    path: '/v1/website-access-areas/{accessAreaSimplyId}',
    summary: 'Change an access area',
    description: 'Only the supplied fields change: name, rootPageSimplyIds, admits, signInMessage (null clears), enabled (false turns the area off: its pages are public again; there is no delete) (OWNER; websites:write)',
    name: 'UpdateWebsiteAccessArea',
    inputType: 'JSON',
    body: updateAccessAreaInput,
    example: { enabled: false },
    select: WEBSITE_ACCESS_AREA,
  }),
];
