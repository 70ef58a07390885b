// Queues of this area (filled in by its capability).
import type { Services } from '../graphql/context.ts';

export function defineAutomationJobs(_services: Services): void {}
