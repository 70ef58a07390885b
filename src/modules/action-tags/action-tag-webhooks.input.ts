// Lifecycle webhook bodies (docs/api/action-tags.md "Lifecycle webhooks"): one event type per
// subscription, as /v1/webhooks has it, with the same retry and timeout bounds.
import { z } from 'zod';
import { ACTION_TAG_EVENT_TYPES, deliverySettings, deliverySettingsUpdate } from '../webhooks/index.ts';

/** subscriptions per team on this surface (the generic /v1/webhooks ones count apart) */
export const ACTION_TAG_WEBHOOKS_PER_TEAM = 25;

export const createActionTagWebhookInput = z
  .object({
    eventType: z.enum(ACTION_TAG_EVENT_TYPES, { message: `must be one of ${ACTION_TAG_EVENT_TYPES.join(', ')}` }),
    targetUrl: z.string({ message: 'required: a public https:// URL' }),
    ...deliverySettings,
  })
  .strict();

export const updateActionTagWebhookInput = z
  .object({
    targetUrl: z.string().optional(),
    ...deliverySettingsUpdate,
  })
  .strict();

export type CreateActionTagWebhookInput = z.output<typeof createActionTagWebhookInput>;
export type UpdateActionTagWebhookInput = z.output<typeof updateActionTagWebhookInput>;
