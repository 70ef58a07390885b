// Websites: a team's sites built from block-based page designs, their page trees, who may work on
// each site, and (in the files beside) designs, publishing and the served sites (docs/api/websites.md).
import { defineModule } from '../../app/module.ts';
import * as websitesSchema from './websites.schema.ts';
import * as designsSchema from './designs.schema.ts';
import * as publishingSchema from './publishing.schema.ts';
import * as commentsSchema from './comments.schema.ts';
import { websiteBackupId, websiteCommentId, websiteCommentReplyId, websiteId, websitePageId, websitePageVersionId } from './websites.ids.ts';

export const websitesModule = defineModule({
  name: 'websites',
  description: 'Team websites: sites, page trees, per-site roles, designs, publishing and the served pages.',
  schema: { websitesSchema, designsSchema, publishingSchema, commentsSchema },
  ids: [websiteId, websitePageId, websitePageVersionId, websiteBackupId, websiteCommentId, websiteCommentReplyId],
});
