// Card groups: how a record of a collection is shown as named groups of cards (its own fields as
// label and value, tables of related records through relationship fields), configured per
// collection by administrators and rendered for each caller's field permissions.
import { defineModule } from '../../app/module.ts';
import { dataCardGroupId } from './card-groups.ids.ts';
import * as schema from './card-groups.schema.ts';

export const cardGroupsModule = defineModule({
  name: 'card-groups',
  description: 'Record cards: card groups configured per collection, rendered on a record with the caller’s field permissions.',
  schema,
  ids: [dataCardGroupId],
});
