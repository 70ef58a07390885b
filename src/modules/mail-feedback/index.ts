// What receiving mail servers report back: bounces, complaints (inbound SMTP) and one-click unsubscribes.
import { defineModule } from '../../app/module.ts';

export const mailFeedbackModule = defineModule({
  name: 'mail-feedback',
  description: 'What receiving mail servers report back: bounces, complaints (inbound SMTP) and one-click unsubscribes.',
});
