// The queues of the files area: promotion, image variants, and the upload sweeper.
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { PROMOTE_UPLOAD, PROMOTION_RETRY_LIMIT, promoteUploads } from './file-promotion.ts';
import { SWEEP_UPLOADS, sweepUploads } from './upload-sweeper.ts';
import { RENDER_VARIANTS, renderVariants } from './variant-jobs.ts';

export function fileJobs(services: Services): JobDefinition<never>[] {
  return [
    {
      name: PROMOTE_UPLOAD,
      // promotions hash, inspect and scan whole files: a few at once per instance
      concurrency: 4,
      retryLimit: PROMOTION_RETRY_LIMIT,
      expireInSeconds: 20 * 60,
      handler: (jobs) => promoteUploads(services, jobs as never),
    },
    {
      name: RENDER_VARIANTS,
      // sharp uses every core for one image already
      concurrency: 1,
      retryLimit: 3,
      handler: (jobs) => renderVariants(services, jobs as never),
    },
    {
      name: SWEEP_UPLOADS,
      schedule: '* * * * *',
      retryLimit: 0,
      handler: async (_jobs, { logger }) => {
        const swept = await sweepUploads(services);
        if (swept.expired || swept.resent || swept.timedOut) logger.info(swept, 'swept file uploads');
      },
    },
  ] as JobDefinition<never>[];
}
