// Reusable content templates: outgoing-message and canned-response bodies, document templates of collections.
import { defineModule } from '../../app/module.ts';
import { contentTemplateId } from './content-templates.ids.ts';
import * as schema from './content-templates.schema.ts';

export const contentTemplatesModule = defineModule({
  name: 'content-templates',
  description: 'Reusable content templates: outgoing-message and canned-response bodies, document templates of collections.',
  schema,
  ids: [contentTemplateId],
});
