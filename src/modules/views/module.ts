// Data views: saved, filtered and sorted windows onto a collection.
import { defineModule } from '../../app/module.ts';
import { dataViewId, viewFieldLinkId } from './views.ids.ts';
import * as schema from './views.schema.ts';

export const viewsModule = defineModule({
  name: 'views',
  description: 'Data views: saved, filtered and sorted windows onto a collection, their records, and their administration.',
  schema,
  ids: [dataViewId, viewFieldLinkId],
});
