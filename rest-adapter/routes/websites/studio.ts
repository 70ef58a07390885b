// The studio's helpers → src/modules/websites/studio.schema.ts (docs/api/websites.md "Studio
// context", "Blog"): a bounded context of a site for the studio or an AI assistant, and the blog set-up.
import { z } from 'zod';
import { operation } from '../../../src/app/graphql/fragments.ts';
import { WEBSITE_PAGE } from '../../../src/modules/websites/websites.fragments.ts';
import { respond, route } from '../../route.ts';

const SITE = '/v1/websites/{websiteSimplyId}';

const STUDIO_CONTEXT = `websiteSimplyId
  site { name slug isPublished publishedUrl metaTitle metaDescription defaultLanguageTagId availableLanguageTagIds restricted myRole }
  theme themeTruncated
  pages { pageSimplyId parentPageSimplyId title path depth isHomePage publishState reviewState accessAreaSimplyId } totalPages pagesTruncated
  menus { name items { depth type label pageSimplyId path url } totalItems truncated }
  activePage { pageSimplyId title path draftRevision publishState blocks { id type tagName depth childCount label } totalComponents truncated }
  byteSize maxBytes`;

export const websiteStudioRoutes = [
  route({
    method: 'GET',
    path: `${SITE}/studio-context`,
    summary: 'Get a website’s studio context',
    description:
      'A summary of the site for the studio or an AI assistant, at most 64 KiB: settings, theme (up to 16 KiB), the page tree (paths, titles, states, access areas; at most 200 pages), the navigation menus (at most 100 items each), and with activePageSimplyId that page’s blocks outline (at most 200 blocks); each list says when it was cut (VIEWER; websites:read)',
    operation: operation([`query WebsiteStudioContext($id: String!, $active: String) { websiteStudioContext(websiteSimplyId: $id, activePageSimplyId: $active) { ${STUDIO_CONTEXT} } }`]),
    query: z.strictObject({ activePageSimplyId: z.string().optional().describe('a page of the site whose blocks outline to include') }),
    variables: ({ params, query }) => ({ id: params.websiteSimplyId, active: (query as { activePageSimplyId?: string }).activePageSimplyId ?? null }),
  }),
  route({
    method: 'POST',
    path: `${SITE}/blog/setup`,
    summary: 'Set up a website’s blog',
    description:
      'Creates the default blog pages: a Blog page at /blog with a listing section and a first example post under it, as drafts; 201. When the site has a root page with the slug blog, nothing is made: 200 with that page and the pages under it (EDITOR; websites:write)',
    operation: operation`mutation SetupWebsiteBlog($id: String!) { setupWebsiteBlog(websiteSimplyId: $id) { created blogPage { ${WEBSITE_PAGE} } posts { ${WEBSITE_PAGE} } } }`,
    variables: ({ params }) => ({ id: params.websiteSimplyId }),
    respond: respond.custom(
      (value: { created: boolean }) => ({ data: value, status: value.created ? 201 : 200 }),
      (field) => ({ data: field }),
    ),
    status: 201,
  }),
];
