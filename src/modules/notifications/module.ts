// Notifications: each signed-in person's feed per team, device preferences, push to phones and
// browsers (Web Push, APNs, FCM) and the realtime read-state channel. Notifications are written
// only by the platform, through notify.service.ts.
import { defineModule } from '../../app/module.ts';
import { notificationsConfig } from './notifications.config.ts';
import * as notificationsSchema from './notifications.schema.ts';
import { deviceTokenId, notificationId } from './notifications.ids.ts';
import * as deviceTokensSchema from './device-tokens.schema.ts';
import { pushJobs } from './push/push.jobs.ts';
import { createPushService, type PushService } from './push/push-service.ts';
import './notifications.events.ts';

declare module '../../app/context.ts' {
  interface Services {
    /** push senders (Web Push, APNs, FCM) and the instance's VAPID public key; created lazily on first use */
    push: PushService;
  }
}

export const notificationsModule = defineModule({
  name: 'notifications',
  description: "A signed-in person's notification feed per team, per-device preferences, push delivery (Web Push, APNs, FCM) and realtime read-state.",
  config: notificationsConfig,
  schema: { notificationsSchema, deviceTokensSchema },
  ids: [notificationId, deviceTokenId],
  services: (services) => ({ push: createPushService(services) }),
  jobs: (services) => pushJobs(services),
  topics: ['notificationEvents'],
});
