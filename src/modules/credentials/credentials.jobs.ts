// The hourly clean-up of expired credentials (credentials-purge.service.ts).
import type { JobDefinition } from '../../app/jobs.ts';
import { purgeExpiredCredentials } from './credentials-purge.service.ts';

export const PURGE_EXPIRED_CREDENTIALS = 'maintenance.purge-expired-credentials';

export const credentialJobs: JobDefinition<{ now?: string }>[] = [
  {
    name: PURGE_EXPIRED_CREDENTIALS,
    schedule: '17 * * * *',
    handler: async (batch, { services }) => {
      for (const job of batch) await purgeExpiredCredentials(services, job.data.now ? new Date(job.data.now) : new Date());
    },
  },
];
