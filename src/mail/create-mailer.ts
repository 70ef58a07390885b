// Placeholder until the mail transport lands (issue 4): wired into createServices.
import type { Services } from '../graphql/context.ts';
import type { Mailer } from './mailer.ts';

export function createMailer(_services: Omit<Services, 'mail'>): Mailer {
  return {
    enqueue: async () => {
      throw new Error('mail transport not built yet');
    },
  };
}
