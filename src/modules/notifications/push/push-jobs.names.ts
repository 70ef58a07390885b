// Queue names and job payloads of push delivery (the handlers are in push.jobs.ts).

/** one job per new notification: finds the person's devices that allow its category */
export const PUSH_FANOUT = 'notifications.push-fanout';
/** one job per (notification, push token): one provider request, retried with backoff */
export const PUSH_SEND = 'notifications.push-send';

export interface PushFanoutJob {
  teamId: string;
  notificationId: string;
}

export interface PushSendJob {
  teamId: string;
  deliveryId: string;
}
