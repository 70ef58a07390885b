// Website imports → src/modules/websites/import-site.schema.ts (docs/api/websites.md "Import"):
// discover a public site, start a WEBSITE_IMPORT background task, answer its review suggestions.
import { operation } from '../../../src/app/graphql/fragments.ts';
import { discoverInput, reviewImportInput, START_EXAMPLE, startImportInput } from '../../../src/modules/websites/import-input.ts';
import { route } from '../../route.ts';

const DISCOVERY = 'sourceUrl title faviconUrl pages { url path title inSitemap } pagesTruncated sitemapUrl sitemapSections { name path pageCount }';
const REVIEW = 'backgroundTaskSimplyId websiteSimplyId suggestions { suggestionId kind message pageSimplyId status modifications } changedPageSimplyIds';

export const websiteImportRoutes = [
  route({
    method: 'POST',
    path: '/v1/websites/import/discover',
    summary: 'Discover a website to import',
    description:
      '{ sourceUrl }: reads the public http(s) page (robots.txt respected; size, time and redirects bounded) and answers its title, favicon URL, the pages on the same site it links to and its sitemap.xml lists (at most 200), and the sitemap’s sections. 400 WEBSITE_IMPORT_TARGET_REFUSED for private, loopback or reserved addresses; 422 WEBSITE_IMPORT_SOURCE_UNAVAILABLE when the page cannot be read as HTML (websites feature at edit level; websites:write)',
    operation: operation`mutation DiscoverWebsiteImport($input: JSON!) { discoverWebsiteImport(input: $input) { ${DISCOVERY} } }`,
    body: discoverInput,
    example: { sourceUrl: 'https://www.friends-of-the-park.org/' },
    variables: ({ body }) => ({ input: body }),
  }),
  route({
    method: 'POST',
    path: '/v1/websites/import/start',
    summary: 'Start a website import',
    description:
      '{ sourceUrl, targetMode: NEW_WEBSITE | EXISTING_WEBSITE, selectedPages?, existingWebsiteSimplyId?, websiteName?, styleSource?: EXTRACTED | EXISTING_WEBSITE }: queues a WEBSITE_IMPORT background task that makes each selected page a sanitized draft page; 201 with backgroundTaskSimplyId. STYLE_KIT is refused (400 naming styleSource) (EDITOR on an existing site, or the websites feature at edit level for a new one; websites:write)',
    operation: operation`mutation StartWebsiteImport($input: JSON!) { startWebsiteImport(input: $input) { backgroundTaskSimplyId status websiteSimplyId pageCount } }`,
    body: startImportInput,
    example: START_EXAMPLE,
    variables: ({ body }) => ({ input: body }),
    status: 201,
  }),
  route({
    method: 'POST',
    path: '/v1/websites/import/{backgroundTaskSimplyId}/review',
    summary: 'Review a website import',
    description:
      '{ responses: [{ suggestionId, action: ACCEPT | SKIP | MODIFY, modifications? }] }: applies the answers to the imported drafts (new draft revisions, never published); 400 naming unknown suggestion ids (nothing changes), 409 WEBSITE_IMPORT_NOT_FINISHED while the task runs (EDITOR on the imported site; websites:write)',
    operation: operation`mutation ReviewWebsiteImport($id: String!, $input: JSON!) { reviewWebsiteImport(backgroundTaskSimplyId: $id, input: $input) { ${REVIEW} } }`,
    body: reviewImportInput,
    example: { responses: [{ suggestionId: 'missing-images', action: 'ACCEPT' }, { suggestionId: 'form-wpg-AB23-CD45-EF67', action: 'MODIFY', modifications: { text: 'Sign up with our volunteer wizard' } }] },
    variables: ({ params, body }) => ({ id: params.backgroundTaskSimplyId, input: body }),
  }),
];
