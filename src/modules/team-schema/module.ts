// The team schema document: export, versions, comparison and change detection.
import { defineModule } from '../../app/module.ts';
import * as schema from './team-schema.schema.ts';

export const teamSchemaModule = defineModule({
  name: 'team-schema',
  description: 'The team schema as a portable document: export, versions, comparison, changes since a version.',
  schema,
});
