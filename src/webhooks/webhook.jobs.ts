// Queues of this area (filled in by its capability).
import type { Services } from '../graphql/context.ts';

export function defineWebhookJobs(_services: Services): void {}
