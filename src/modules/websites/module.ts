// Websites: a team's sites built from block-based page designs, their page trees, who may work on
// each site, and (in the files beside) designs, publishing and the served sites (docs/api/websites.md).
import { defineModule } from '../../app/module.ts';
import * as websitesSchema from './websites.schema.ts';
import * as designsSchema from './designs.schema.ts';
import * as publishingSchema from './publishing.schema.ts';
import * as commentsSchema from './comments.schema.ts';
import * as servingSchema from './serving.schema.ts';
import * as accessAreasSchema from './access-areas.schema.ts';
import * as studioSchema from './studio.schema.ts';
import { ServedPagesCache } from './serve-cache.ts';
import { siteEndpoints } from './serve-endpoint.ts';
import { websiteBackupId, websiteCommentId, websiteCommentReplyId, websiteId, websitePageId, websitePageVersionId, websiteAccessAreaId } from './websites.ids.ts';

export const websitesModule = defineModule({
  name: 'websites',
  description: 'Team websites: sites, page trees, per-site roles, designs, publishing and the served pages.',
  schema: { websitesSchema, designsSchema, publishingSchema, commentsSchema, servingSchema, accessAreasSchema, studioSchema },
  ids: [websiteId, websitePageId, websitePageVersionId, websiteBackupId, websiteCommentId, websiteCommentReplyId, websiteAccessAreaId],
  // the published sites under /sites/ and on their custom domains (serve-endpoint.ts)
  httpEndpoints: (services) => siteEndpoints(services),
  // a server keeps the pages it serves in memory, dropped when their site changes (serve-cache.ts)
  onListening: (services) => {
    const cache = new ServedPagesCache(services);
    services.servedPages = cache;
    cache.start().catch((err: unknown) => services.logger.warn({ err }, 'the served website pages are not kept in memory'));
  },
});
