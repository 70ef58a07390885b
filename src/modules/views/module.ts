// Data views: saved, filtered and sorted windows onto a collection.
import { defineModule } from '../../app/module.ts';
import { dataViewId, viewFieldLinkId } from './views.ids.ts';
import { FeedCache } from './views.ics-feed-cache.ts';
import { viewShareEndpoints } from './views.public-endpoints.ts';
import * as schema from './views.schema.ts';

export const viewsModule = defineModule({
  name: 'views',
  description: 'Data views: saved, filtered and sorted windows onto a collection, their records, their administration, and their sharing as an embedded page or a calendar feed.',
  schema,
  ids: [dataViewId, viewFieldLinkId],
  services: () => ({ viewFeeds: new FeedCache() }),
  // the shared pages (/view-embeds/, /view-feeds/): opened without a credential, by their token
  httpEndpoints: (services) => viewShareEndpoints(services),
});
