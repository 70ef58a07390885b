// Notifications: each signed-in person's feed per team, device preferences, push to phones and
// browsers (Web Push, APNs, FCM) and the realtime read-state channel. Notifications are written
// only by the platform, through notify.service.ts.
import { defineModule } from '../../app/module.ts';
import { deviceTokenId, notificationId } from './notifications.ids.ts';
import { pushFanoutJob } from './push/push-fanout.ts';
import './notifications.events.ts';

export const notificationsModule = defineModule({
  name: 'notifications',
  description: "A signed-in person's notification feed per team, per-device preferences, push delivery (Web Push, APNs, FCM) and realtime read-state.",
  ids: [notificationId, deviceTokenId],
  jobs: () => [pushFanoutJob as never],
  topics: ['notificationEvents'],
});
