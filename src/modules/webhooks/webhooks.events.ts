// The realtime topic of webhook delivery attempts (graphql-ws `webhookDeliveryAttempts`).

/** One webhook delivery attempt finished (src/modules/webhooks). */
export interface WebhookDeliveryAttemptEvent {
  webhookSimplyId: string;
  deliverySimplyId: string;
  eventId: string;
  eventType: string;
  attemptNumber: number;
  deliveryStatus: string;
  success: boolean;
  responseStatus: number | null;
  responseTimeMs: number | null;
  errorMessage: string | null;
  attemptedAt: string;
}

declare module '../../app/pubsub/event-bus.ts' {
  interface Topics {
    /** team simplyId → webhook delivery attempts of that team */
    webhookDeliveryAttempts: [string, WebhookDeliveryAttemptEvent];
  }
}
