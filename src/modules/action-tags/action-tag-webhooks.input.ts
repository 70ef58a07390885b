// Lifecycle webhook bodies (docs/api/action-tags.md "Lifecycle webhooks"): one event type per
// subscription, as /v1/webhooks has it, with the same retry and timeout bounds.
import { z } from 'zod';
import { ACTION_TAG_EVENT_TYPES, WEBHOOK_LIMITS } from '../webhooks/index.ts';

/** subscriptions per team on this surface (the generic /v1/webhooks ones count apart) */
export const ACTION_TAG_WEBHOOKS_PER_TEAM = 25;

const bounded = (name: 'retryCount' | 'retryDelaySeconds' | 'timeoutSeconds') => {
  const { min, max } = WEBHOOK_LIMITS[name];
  return z.number().int(`must be an integer from ${min} to ${max}`).min(min, `must be from ${min} to ${max}`).max(max, `must be from ${min} to ${max}`);
};

export const createActionTagWebhookInput = z
  .object({
    eventType: z.enum(ACTION_TAG_EVENT_TYPES, { message: `must be one of ${ACTION_TAG_EVENT_TYPES.join(', ')}` }),
    targetUrl: z.string({ message: 'required: a public https:// URL' }),
    retryCount: bounded('retryCount').default(WEBHOOK_LIMITS.retryCount.default),
    retryDelaySeconds: bounded('retryDelaySeconds').default(WEBHOOK_LIMITS.retryDelaySeconds.default),
    timeoutSeconds: bounded('timeoutSeconds').default(WEBHOOK_LIMITS.timeoutSeconds.default),
  })
  .strict();

export const updateActionTagWebhookInput = z
  .object({
    targetUrl: z.string().optional(),
    isActive: z.boolean().optional(),
    isPaused: z.boolean().optional(),
    retryCount: bounded('retryCount').optional(),
    retryDelaySeconds: bounded('retryDelaySeconds').optional(),
    timeoutSeconds: bounded('timeoutSeconds').optional(),
  })
  .strict();

export type CreateActionTagWebhookInput = z.output<typeof createActionTagWebhookInput>;
export type UpdateActionTagWebhookInput = z.output<typeof updateActionTagWebhookInput>;
