// Background tasks: long work (exports, imports, bulk deletes, document generation, image
// variants) that people follow, acknowledge and download from (docs/api/background-tasks.md).
import { defineModule } from '../../app/module.ts';
import { backgroundTasksConfig } from './background-tasks.config.ts';
import * as schema from './background-tasks.schema.ts';
import * as recordOutputsSchema from './record-outputs.schema.ts';
import { backgroundTaskJobs } from './background-tasks.jobs.ts';
import { imageVariantWorkOf } from './image-variants.work.ts';
import { backgroundTaskErrorId, backgroundTaskId, outputDefaultId, recordOutputId, recordTaskLinkId } from './background-tasks.ids.ts';

export const backgroundTasksModule = defineModule({
  name: 'background-tasks',
  description: 'Background tasks: exports, imports, bulk deletes and document generation, with progress, errors and results.',
  config: backgroundTasksConfig,
  schema: { schema, recordOutputsSchema },
  ids: [backgroundTaskId, backgroundTaskErrorId, recordTaskLinkId, recordOutputId, outputDefaultId],
  // the files area renders an upload's variants through this hook, as a visible task
  services: (services) => ({ imageVariantWork: imageVariantWorkOf(services) }),
  jobs: (services) => backgroundTaskJobs(services),
  topics: ['backgroundTaskProgress'],
});
