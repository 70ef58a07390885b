// The queues of routing and SLAs: `conversations.route` (one team's waiting conversations; at most
// one queued per team), a minute's sweep that routes every team with conversations waiting
// (capacity freed by a resolve, a heartbeat that came back), and the SLA checks (sla-check.ts).
import type { Services } from '../../app/context.ts';
import type { JobDefinition } from '../../app/jobs.ts';
import { routeTeam, teamsWaiting } from './routing-assign.ts';
import { ROUTE_CONVERSATIONS, type RouteJob } from './routing-queue.ts';
import { slaJobs } from './sla-check.ts';

export const ROUTE_WAITING = 'conversations.route-waiting';

export function routingJobs(services: Services): JobDefinition<never>[] {
  return [
    {
      name: ROUTE_CONVERSATIONS,
      policy: 'short',
      retryLimit: 5,
      batchSize: 10,
      concurrency: 2,
      handler: async (jobs: { data: RouteJob }[]) => {
        for (const teamId of new Set(jobs.map((j) => j.data.teamId))) await routeTeam(services, BigInt(teamId));
      },
    },
    {
      name: ROUTE_WAITING,
      schedule: '* * * * *',
      handler: async () => {
        for (const teamId of await teamsWaiting(services.pool)) await routeTeam(services, teamId);
      },
    },
    ...slaJobs(services),
  ] as JobDefinition<never>[];
}
