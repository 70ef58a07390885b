// Bodies and limits of the recent-visits routes (docs/api/users.md "Recent visits").
import { z } from 'zod';

/** how many visits a person keeps per team: older ones are dropped as new ones arrive */
export const RECENT_VISITS_KEPT = 50;
export const RECENT_VISITS_DEFAULT_LIMIT = 20;

/**
 * A path inside the app ("/records/rec-…?tab=files"), never an address elsewhere: the apps put it
 * in links, so schemes (javascript:, https:), protocol-relative "//host" and backslashes (which
 * browsers read as slashes) are refused.
 */
const inAppPath = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((v) => v.startsWith('/') && !v.startsWith('//') && !v.includes('\\'), 'must be a path inside the app, starting with a single "/"')
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters');

export const recordVisitInput = z.strictObject({
  entityType: z.string().max(50).regex(/^[A-Z][A-Z0-9_]*$/, 'an upper-case identifier such as DATA_RECORD'),
  entityId: z.string().trim().min(1).max(200),
  title: z.string().trim().max(200).nullable().optional(),
  url: inAppPath.nullable().optional(),
});

export const recentVisitsQuery = z.strictObject({
  limit: z.number().int().min(1).max(RECENT_VISITS_KEPT).default(RECENT_VISITS_DEFAULT_LIMIT),
});
