// Data collections and their fields, the field types, data permissions, and each team's schema
// kept in memory (`services.schemas`).
import { defineModule } from '../../app/module.ts';
import { dataFieldId, SchemaCache } from '../../kernel/index.ts';
import * as schema from './collections.schema.ts';
import { collectionsConfig } from './collections.config.ts';
import { collectionJobs } from './collections.jobs.ts';

declare module '../../app/context.ts' {
  interface Services {
    /** each team's collections and fields, kept in memory until a schema change */
    schemas: SchemaCache;
  }
}

export const collectionsModule = defineModule({
  name: 'collections',
  description: 'Data collections, their typed fields and display-name formula, and the create menu.',
  schema,
  ids: [dataFieldId],
  config: collectionsConfig,
  jobs: () => collectionJobs as never[],
  services: async ({ pool, notifier }) => {
    const schemas = new SchemaCache(pool);
    await schemas.listen(notifier);
    return { schemas };
  },
});
