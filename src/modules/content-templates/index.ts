// Reusable content templates: outgoing-message and canned-response bodies, document templates of collections.
import { defineModule } from '../../app/module.ts';

export const contentTemplatesModule = defineModule({
  name: 'content-templates',
  description: 'Reusable content templates: outgoing-message and canned-response bodies, document templates of collections.',
});
