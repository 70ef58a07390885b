// GraphQL face of website translations: start a WEBSITE_TRANSLATION task, and where the overlays
// stand. REST: rest-adapter/routes/websites/ai.ts. The websites tier; the services check the role.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { type TranslationStarted, startWebsiteTranslation } from './translate-service.ts';
import { type PageTranslationState, translationStatus } from './translate-status.ts';

const read = tier.websites('websites:read');
const write = tier.websites('websites:write');

const StartedRef = builder.objectRef<TranslationStarted>('WebsiteTranslationStarted').implement({
  fields: (t) => ({
    backgroundTaskSimplyId: t.exposeString('backgroundTaskSimplyId', { description: 'follow it at GET /v1/background-tasks/{id}' }),
    status: t.exposeString('status'),
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    languageTagIds: t.exposeStringList('languageTagIds'),
    pageCount: t.exposeInt('pageCount'),
  }),
});

const StateRef = builder.objectRef<PageTranslationState>('WebsitePageTranslationState').implement({
  fields: (t) => ({
    pageSimplyId: t.exposeString('pageSimplyId'),
    languageTagId: t.exposeString('languageTagId'),
    translatedRevision: t.exposeInt('translatedRevision', { description: 'the draft revision last translated' }),
    draftRevision: t.exposeInt('draftRevision'),
    currentCount: t.exposeInt('currentCount', { description: 'components whose translation fits their text' }),
    staleComponentIds: t.exposeStringList('staleComponentIds', { description: 'components whose text changed since they were translated' }),
    missingComponentIds: t.exposeStringList('missingComponentIds', { description: 'components with text and no translation' }),
  }),
});

builder.queryFields((t) => ({
  websiteTranslationStatus: t.field({
    type: [StateRef],
    description: 'Each translated page and language of the site against the page’s draft (VIEWER)',
    authScopes: read,
    args: { websiteSimplyId: t.arg.string({ required: true }), languageTagId: t.arg.string() },
    resolve: (_r, a, ctx) => translationStatus(ctx, a.websiteSimplyId, a.languageTagId ?? null),
  }),
}));

builder.mutationFields((t) => ({
  startWebsiteTranslation: t.field({
    type: StartedRef,
    description: 'Queues a WEBSITE_TRANSLATION background task that translates the site’s pages into the languages given, as overlays (EDITOR)',
    authScopes: write,
    args: { websiteSimplyId: t.arg.string({ required: true }), input: t.arg({ type: 'JSON', required: true, description: 'the body, as the REST route takes it' }) },
    resolve: (_r, a, ctx) => startWebsiteTranslation(ctx, a.websiteSimplyId, a.input),
  }),
}));
