// Webhook subscription bodies (docs/api/webhooks.md) and their limits. The URL's address policy
// lives in target-guard.ts; whether the caller may read the filtered collections, in the service.
import { z } from 'zod';
import { type ErrorDetail, ValidationError } from '../../app/errors.ts';
import { simplyIdPattern } from '../../app/ids.ts';

export const WEBHOOK_EVENT_TYPES = ['DATA_RECORD_CREATED', 'DATA_RECORD_UPDATED', 'DATA_RECORD_DELETED', 'DATA_RECORDS_BULK_SYNCED'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Action-tag lifecycle events (Document 3 §6.2): delivered, signed and logged by this machinery,
 * but subscribed to only at /v1/action-tags/webhooks; the generic routes refuse and never show
 * them (Document 1 §4.8).
 */
export const ACTION_TAG_EVENT_TYPES = ['ACTION_TAG_CREATED', 'ACTION_TAG_UPDATED', 'ACTION_TAG_STATUS_CHANGED', 'ACTION_TAG_DELETED', 'ACTION_TAG_SCANNED'] as const;
export type ActionTagEventType = (typeof ACTION_TAG_EVENT_TYPES)[number];
const ACTION_TAG_TYPES = new Set<unknown>(ACTION_TAG_EVENT_TYPES);

export const WEBHOOK_LIMITS = {
  retryCount: { min: 0, max: 10, default: 3 },
  retryDelaySeconds: { min: 1, max: 3600, default: 60 },
  timeoutSeconds: { min: 1, max: 60, default: 30 },
  /** collections in one filter */
  filterCollections: 100,
  /** subscriptions per team */
  perTeam: 100,
} as const;

const bounded = (name: keyof typeof WEBHOOK_LIMITS & ('retryCount' | 'retryDelaySeconds' | 'timeoutSeconds')) => {
  const { min, max } = WEBHOOK_LIMITS[name];
  return z.number().int(`must be an integer from ${min} to ${max}`).min(min, `must be from ${min} to ${max}`).max(max, `must be from ${min} to ${max}`);
};

/** How a subscription is delivered, with the defaults a new one gets (every subscription surface's bodies). */
export const deliverySettings = {
  retryCount: bounded('retryCount').default(WEBHOOK_LIMITS.retryCount.default),
  retryDelaySeconds: bounded('retryDelaySeconds').default(WEBHOOK_LIMITS.retryDelaySeconds.default),
  timeoutSeconds: bounded('timeoutSeconds').default(WEBHOOK_LIMITS.timeoutSeconds.default),
};

/** The same settings in an update: only those sent change. */
export const deliverySettingsUpdate = {
  isActive: z.boolean().optional(),
  isPaused: z.boolean().optional(),
  retryCount: bounded('retryCount').optional(),
  retryDelaySeconds: bounded('retryDelaySeconds').optional(),
  timeoutSeconds: bounded('timeoutSeconds').optional(),
};

export const createWebhookInput = z
  .object({
    eventType: z.enum(WEBHOOK_EVENT_TYPES, {
      error: (issue) =>
        ACTION_TAG_TYPES.has(issue.input) ? 'is an action-tag lifecycle event: subscribe to it at /v1/action-tags/webhooks' : `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    }),
    targetUrl: z.string({ message: 'required: a public https:// URL' }),
    // checked by parseFilterCriteria (shape) and the service (collections and permissions)
    filterCriteria: z.unknown().optional(),
    ...deliverySettings,
  })
  .strict();

export const updateWebhookInput = z
  .object({
    targetUrl: z.string().optional(),
    filterCriteria: z.unknown().optional(),
    ...deliverySettingsUpdate,
  })
  .strict();

export type CreateWebhookInput = z.output<typeof createWebhookInput>;
export type UpdateWebhookInput = z.output<typeof updateWebhookInput>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `{ dataCollectionIds: [collection simplyId] }` → the ids; null or absent → null (every collection).
 * Only the shape is checked here; every problem is reported with its path.
 */
export function parseFilterCriteria(raw: unknown): string[] | null {
  if (raw === undefined || raw === null) return null;
  const fail = (details: ErrorDetail[]): never => {
    throw new ValidationError('Invalid filterCriteria: expected { dataCollectionIds: [collection simplyId] } or null', details);
  };
  if (!isObject(raw)) return fail([{ field: 'filterCriteria', message: 'must be an object { dataCollectionIds } or null' }]);
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(raw)) {
    if (key !== 'dataCollectionIds') details.push({ field: `filterCriteria.${key}`, message: 'unknown key; allowed: dataCollectionIds' });
  }
  const ids = raw.dataCollectionIds;
  if (!Array.isArray(ids)) {
    details.push({ field: 'filterCriteria.dataCollectionIds', message: 'required: an array of collection simplyIds (use filterCriteria null for every collection)' });
    return fail(details);
  }
  if (ids.length === 0 || ids.length > WEBHOOK_LIMITS.filterCollections) {
    details.push({ field: 'filterCriteria.dataCollectionIds', message: `must list 1 to ${WEBHOOK_LIMITS.filterCollections} collections (use filterCriteria null for every collection)` });
  }
  const seen = new Set<string>();
  ids.forEach((id: unknown, i) => {
    const at = `filterCriteria.dataCollectionIds[${i}]`;
    if (typeof id !== 'string' || !simplyIdPattern().test(id)) details.push({ field: at, message: 'must be a collection simplyId (XXXX-XXXX-XXXX)' });
    else if (seen.has(id)) details.push({ field: at, message: `${id} is listed more than once` });
    else seen.add(id);
  });
  if (details.length > 0) fail(details);
  return [...seen];
}

/** The stored filter read back (null: every collection). */
export function readFilterCollections(stored: unknown): string[] | null {
  if (!isObject(stored) || !Array.isArray(stored.dataCollectionIds)) return null;
  return stored.dataCollectionIds.filter((v): v is string => typeof v === 'string');
}
