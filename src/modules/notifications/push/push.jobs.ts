// The push queues of the notifications area: fan-out per new notification, one send per token.
import type { Services } from '../../../app/context.ts';
import type { JobDefinition } from '../../../app/jobs.ts';
import { pushFanoutJob } from './push-fanout.ts';
import { pushSendJob } from './push-send.ts';

export function pushJobs(_services: Services): JobDefinition<never>[] {
  return [pushFanoutJob as never, pushSendJob as never];
}
