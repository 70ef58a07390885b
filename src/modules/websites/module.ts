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
import * as importSchema from './import-site.schema.ts';
import { registerTaskType } from '../background-tasks/index.ts';
import { websiteImportConfig } from './import-config.ts';
import { websiteImportTask } from './import-task.ts';
import * as translateSchema from './translate-website.schema.ts';
import * as draftsSchema from './drafts-ai.schema.ts';
import { websiteTranslationTask } from './translate-task.ts';
import * as templatesSchema from './website-templates.schema.ts';
import { websiteCopyTask } from './website-copy-task.ts';
import { templateReleaseTask } from './templates-release-task.ts';
import { websiteTemplateId, websiteTemplateReleaseId } from './website-templates.ids.ts';
import * as savedLayoutsSchema from './saved-layouts.schema.ts';
import { websiteSavedLayoutId } from './saved-layouts.ids.ts';
import { ServedPagesCache } from './serve-cache.ts';
import { siteEndpoints } from './serve-endpoint.ts';
import { websiteBackupId, websiteCommentId, websiteCommentReplyId, websiteId, websitePageId, websitePageVersionId, websiteAccessAreaId } from './websites.ids.ts';

// imports of existing sites run as background tasks of this area's own type (import-task.ts)
registerTaskType(websiteImportTask);
// translations too (translate-task.ts)
registerTaskType(websiteTranslationTask);
// sites made from templates are copied, and template releases applied, the same way (website-copy-task.ts, templates-release-task.ts)
registerTaskType(websiteCopyTask);
registerTaskType(templateReleaseTask);

export const websitesModule = defineModule({
  name: 'websites',
  description: 'Team websites: sites, page trees, per-site roles, designs, publishing and the served pages.',
  config: websiteImportConfig,
  schema: { websitesSchema, designsSchema, publishingSchema, commentsSchema, servingSchema, accessAreasSchema, studioSchema, savedLayoutsSchema, importSchema, translateSchema, draftsSchema, templatesSchema },
  ids: [websiteId, websitePageId, websitePageVersionId, websiteBackupId, websiteCommentId, websiteCommentReplyId, websiteAccessAreaId, websiteSavedLayoutId, websiteTemplateId, websiteTemplateReleaseId],
  // the published sites under /sites/ and on their custom domains (serve-endpoint.ts)
  httpEndpoints: (services) => siteEndpoints(services),
  // a server keeps the pages it serves in memory, dropped when their site changes (serve-cache.ts)
  onListening: (services) => {
    const cache = new ServedPagesCache(services);
    services.servedPages = cache;
    cache.start().catch((err: unknown) => services.logger.warn({ err }, 'the served website pages are not kept in memory'));
  },
});
