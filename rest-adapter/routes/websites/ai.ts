// AI on websites → src/modules/websites/translate-website.schema.ts and drafts-ai.schema.ts
// (docs/api/websites.md "Translations", "AI drafts"): translating a site as a background task, and
// drafts (a page, a site plan, blocks, text rewrites) that are only answers, accepted through the
// design PATCH. EDITOR; 403 AI_FEATURE_UNAVAILABLE without a model.
import { operation } from '../../../src/app/graphql/fragments.ts';
import { blockDraftInput, pageDraftInput, sitePlanDraftInput, textRewriteDraftInput } from '../../../src/modules/websites/drafts-input.ts';
import { translationStartInput } from '../../../src/modules/websites/translate-service.ts';
import { route } from '../../route.ts';

const SITE = '/v1/websites/{websiteSimplyId}';
const ONE_PAGE = `${SITE}/pages/{pageSimplyId}`;
const AI = 'without a configured AI model 403 AI_FEATURE_UNAVAILABLE; a failed model step, or an answer that does not fit after one repair attempt, 424 AI_MODEL_ERROR';

export const websiteAiRoutes = [
  route({
    method: 'POST',
    path: `${SITE}/translate/start`,
    summary: 'Start translating a website',
    description: `{ targetLanguageTagIds, pageSimplyIds? }: queues a WEBSITE_TRANSLATION background task (202) that translates the pages (all, or those named) into each language as overlays keyed by component id; components whose text is unchanged keep their translation. A language shows on the served site at /sites/{slug}/{language}/ once it is in availableLanguageTagIds (EDITOR; websites:write); ${AI}`,
    operation: operation`mutation StartWebsiteTranslation($id: String!, $input: JSON!) { startWebsiteTranslation(websiteSimplyId: $id, input: $input) { backgroundTaskSimplyId status websiteSimplyId languageTagIds pageCount } }`,
    body: translationStartInput,
    example: { targetLanguageTagIds: ['de', 'fr'] },
    variables: ({ params, body }) => ({ id: params.websiteSimplyId, input: body }),
    status: 202,
  }),
  route({
    method: 'POST',
    path: `${SITE}/page-drafts`,
    summary: 'Draft a page with AI',
    description: `{ brief, title? }: a whole page drafted by the AI model: title, meta description, design and the design operations that put it on a page; nothing is written (EDITOR; websites:write); ${AI}`,
    operation: operation`mutation DraftWebsitePage($id: String!, $input: JSON!) { draftWebsitePage(websiteSimplyId: $id, input: $input) { websiteSimplyId title metaDescription design operations removed } }`,
    body: pageDraftInput,
    example: { brief: 'A page about our volunteer days in the park: what we do, when, and how to join' },
    variables: ({ params, body }) => ({ id: params.websiteSimplyId, input: body }),
  }),
  route({
    method: 'POST',
    path: `${SITE}/site-plan-drafts`,
    summary: 'Draft a site plan with AI',
    description: `{ brief, maxPages? }: a page tree with each page's title, slug, purpose and sections, drafted by the AI model; nothing is written (EDITOR; websites:write); ${AI}`,
    operation: operation`mutation DraftWebsiteSitePlan($id: String!, $input: JSON!) { draftWebsiteSitePlan(websiteSimplyId: $id, input: $input) { websiteSimplyId pages totalPages } }`,
    body: sitePlanDraftInput,
    example: { brief: 'A site for a neighbourhood park association: events, volunteering, donations', maxPages: 8 },
    variables: ({ params, body }) => ({ id: params.websiteSimplyId, input: body }),
  }),
  route({
    method: 'POST',
    path: `${ONE_PAGE}/block-drafts`,
    summary: 'Draft blocks for a page with AI',
    description: `{ brief, count?, parentId?, index? }: 1-5 blocks drafted by the AI model for the page, with insert operations for PATCH …/design; nothing is written (EDITOR; websites:write); ${AI}`,
    operation: operation`mutation DraftWebsiteBlocks($id: String!, $page: String!, $input: JSON!) { draftWebsiteBlocks(websiteSimplyId: $id, pageSimplyId: $page, input: $input) { websiteSimplyId pageSimplyId draftRevision blocks operations removed } }`,
    body: blockDraftInput,
    example: { brief: 'A call to action to become a member, with a button to /join', count: 1 },
    variables: ({ params, body }) => ({ id: params.websiteSimplyId, page: params.pageSimplyId, input: body }),
  }),
  route({
    method: 'POST',
    path: `${ONE_PAGE}/text-rewrite-drafts`,
    summary: 'Draft text rewrites with AI',
    description: `{ componentIds, tone?, length?, language?, instructions? }: new text for each component named, drafted by the AI model, with setText operations for PATCH …/design; nothing is written (EDITOR; websites:write); ${AI}`,
    operation: operation`mutation DraftWebsiteTextRewrites($id: String!, $page: String!, $input: JSON!) { draftWebsiteTextRewrites(websiteSimplyId: $id, pageSimplyId: $page, input: $input) { websiteSimplyId pageSimplyId draftRevision rewrites operations removed } }`,
    body: textRewriteDraftInput,
    example: { componentIds: ['c1a2b3c4d5e'], tone: 'warm and welcoming', length: 'SHORTER' },
    variables: ({ params, body }) => ({ id: params.websiteSimplyId, page: params.pageSimplyId, input: body }),
  }),
];
