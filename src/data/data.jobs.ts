// Queues of the data core: the outbox dispatcher (nudged after each record write, and swept every
// minute so nothing waits long after a missed nudge or a crash).
import type { Services } from '../graphql/context.ts';
import { DISPATCH_DOMAIN_EVENTS } from './events/outbox.ts';

export function defineDataJobs(services: Services): void {
  services.jobs.define({
    name: DISPATCH_DOMAIN_EVENTS,
    schedule: '* * * * *',
    handler: async () => {
      await services.outbox.dispatchPending();
    },
  });
}
