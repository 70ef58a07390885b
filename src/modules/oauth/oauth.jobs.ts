// The daily clean-up of the authorization server's expired state (oauth-prune.ts).
import type { JobDefinition } from '../../app/jobs.ts';
import { pruneExpiredOAuthState } from './oauth-prune.ts';

export const PRUNE_OAUTH_STATE = 'maintenance.prune-oauth-state';

export const oauthJobs: JobDefinition<Record<string, never>>[] = [
  {
    name: PRUNE_OAUTH_STATE,
    schedule: '41 3 * * *',
    handler: async (_batch, { services }) => {
      await pruneExpiredOAuthState(services.prisma);
    },
  },
];
