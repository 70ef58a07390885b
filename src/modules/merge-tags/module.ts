// Merge tags: the one engine that fills `{{ name }}` tags from a record's fields, used by
// automations (SEND_EMAIL, SEND_USER_NOTIFICATION, CHARGE_PAYMENT), message templates, content
// templates and composer sends. A library: no routes, schema or services; callers import
// template.ts (parsing, tag lists) and render.ts (rendering, unknown-tag checks). docs/api/merge-tags.md.
import { defineModule } from '../../app/module.ts';

export const mergeTagsModule = defineModule({
  name: 'merge-tags',
  description: 'Merge tags: `{{ name }}` placeholders in message and content templates, filled from the target record’s fields.',
});
