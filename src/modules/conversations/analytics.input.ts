// Inputs of GET /v1/conversations/analytics (docs/api/conversations.md "Analytics"), shared by the
// GraphQL face and the REST table: both answer 400 VALIDATION_ERROR naming the field.
import { z } from 'zod';
import { channelSchema } from './conversations.input.ts';

export const ANALYTICS_LIMITS = {
  /** the longest range, in days (both ends included) */
  maxRangeDays: 366,
  /** the range without `from`: this many days up to `to` (default today) */
  defaultRangeDays: 30,
} as const;

export const GRANULARITIES = ['day', 'week'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** A calendar date YYYY-MM-DD that exists. */
export const isoDate = z
  .string({ message: 'must be a date YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'must be a date that exists (YYYY-MM-DD)');

const userSimplyId = z.string({ message: 'must be a user simplyId (usr-XXXX-XXXX-XXXX)' }).regex(/^usr-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must be a user simplyId (usr-XXXX-XXXX-XXXX)');

export const analyticsInput = z.strictObject({
  from: isoDate.nullish(),
  to: isoDate.nullish(),
  channel: channelSchema.nullish(),
  assignedUserId: userSimplyId.nullish(),
  granularity: z.enum(GRANULARITIES, { message: `must be one of ${GRANULARITIES.join(', ')}` }).nullish(),
});
export type AnalyticsInput = z.output<typeof analyticsInput>;
