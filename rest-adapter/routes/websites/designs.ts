// Page designs → src/modules/websites/designs.schema.ts (docs/api/websites.md "Designs"): the
// draft, design operations, the blocks outline, the page's activity.
import { z } from 'zod';
import { operation, PAGINATION } from '../../../src/app/graphql/fragments.ts';
import { PATCH_EXAMPLE, patchDesignInput } from '../../../src/modules/websites/design-operations.input.ts';
import { WEBSITE_PAGE_DESIGN } from '../../../src/modules/websites/websites.fragments.ts';
import { respond, route } from '../../route.ts';
import { getOne, updateOne } from '../../route-shapes.ts';
import { queryInt } from '../../schemas.ts';

const PAGE = '/v1/website-pages/{pageSimplyId}';

export const websiteDesignRoutes = [
  getOne({ path: `${PAGE}/design`, summary: 'Get a page’s draft design', description: 'The draft GrapesJS document { components, styles } and its draftRevision (VIEWER; websites:read)', name: 'WebsitePageDesign', select: WEBSITE_PAGE_DESIGN }),
  updateOne({
    method: 'PATCH',
    path: `${PAGE}/design`,
    summary: 'Patch a page’s draft design',
    description:
      '{ operations, summary?, baseRevision? }: insert, move, remove, replace, setAttributes, setText, setStyle, setClasses, setRule, removeRule, addressing components by id; applied in order, all or nothing (400 naming operations.<index>); baseRevision: 409 WEBSITE_DESIGN_CONFLICT when the draft moved on (EDITOR; websites:write)',
    name: 'PatchWebsitePageDesign',
    inputType: 'JSON',
    body: patchDesignInput,
    example: PATCH_EXAMPLE,
    select: WEBSITE_PAGE_DESIGN,
  }),
  route({
    method: 'GET',
    path: `${PAGE}/blocks`,
    summary: 'Outline a page’s blocks',
    description: 'The draft’s components in document order with id, type, tag, depth and a text label; at most 500 (VIEWER; websites:read)',
    operation: operation`query WebsitePageBlocks($id: String!) { websitePageBlocks(pageSimplyId: $id) { pageSimplyId draftRevision totalComponents truncated blocks { id type tagName depth childCount label } } }`,
    variables: ({ params }) => ({ id: params.pageSimplyId }),
  }),
  route({
    method: 'GET',
    path: `${PAGE}/activity`,
    summary: 'List a page’s activity',
    description: 'Edits, publishes, review events and restores, newest first; limit 1-100 (default 25), offset (VIEWER; websites:read)',
    operation: operation([`query WebsitePageActivity($id: String!, $limit: Int, $offset: Int) { websitePageActivity(pageSimplyId: $id, limit: $limit, offset: $offset) { nodes { kind userSimplyId summary revision details createdAt } pagination { `, ' } } }'], PAGINATION),
    query: z.strictObject({ limit: queryInt().describe('1-100, default 25'), offset: queryInt().describe('0 or more') }),
    variables: ({ params, query }) => ({ id: params.pageSimplyId, ...(query as object) }),
    respond: respond.page,
  }),
];
