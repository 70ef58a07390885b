// Action tags: QR codes, NFC chips and links that resolve to a destination the team changes after
// printing, the scans they record and the analytics read from them (docs/api/action-tags.md).
import { defineModule } from '../../app/module.ts';
import { actionTagsConfig } from './action-tags.config.ts';
import { actionTagId } from './action-tags.ids.ts';
import * as actionTagsSchema from './action-tags.schema.ts';
import * as scansSchema from './action-tag-scans.schema.ts';
import * as actionTagDomainsSchema from './action-tag-domains.schema.ts';
import * as actionTagWebhooksSchema from './action-tag-webhooks.schema.ts';
import * as actionTagCsvSchema from './action-tag-csv.schema.ts';
import { actionTagDomainId } from './action-tag-domains.ids.ts';
import { resolveEndpoints } from './resolve-endpoint.ts';
import { ScanRecorder } from './scan-recorder.ts';
import { actionTagRetentionJobs } from './action-tag-retention.ts';

export const actionTagsModule = defineModule({
  name: 'action-tags',
  description: 'Action tags: QR codes, NFC chips and links with a changeable destination, their scans and analytics.',
  config: actionTagsConfig,
  schema: { actionTagsSchema, scansSchema, actionTagDomainsSchema, actionTagWebhooksSchema, actionTagCsvSchema },
  ids: [actionTagId, actionTagDomainId],
  services: (services) => ({
    actionTagScans: new ScanRecorder(services.pool, (err, message) => services.logger.warn({ err }, message)),
  }),
  jobs: (services) => actionTagRetentionJobs(services),
  // the public resolve path /a/{id} (resolve-endpoint.ts)
  httpEndpoints: (services) => resolveEndpoints(services),
  // a server writes its scans in batches, and once more when it stops (scan-recorder.ts)
  listen: async (services) => {
    const recorder = services.actionTagScans!;
    recorder.start(services.config.ACTION_TAGS_SCAN_FLUSH_MS);
    return { close: () => recorder.stop() };
  },
});
