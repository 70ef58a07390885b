// The filters of the action-tag analytics routes (docs/api/action-tags.md "Analytics").
import { z } from 'zod';

const isoDay = z.iso.date({ message: 'must be a date (YYYY-MM-DD)' });
const list = z.string({ message: 'must be a comma-separated list' }).max(2000, 'at most 2000 characters');
export const analyticsQuery = z.strictObject({
  from: isoDay.optional().describe('first day (UTC), default 29 days before `to`'),
  to: isoDay.optional().describe('last day (UTC), default today'),
  status: list.optional().describe('tag statuses, comma-separated'),
  actionType: list.optional().describe('action types, comma-separated'),
  labelSimplyIds: list.optional().describe('tags with any of these labels'),
  dataCollectionSimplyId: z.string().max(64).optional(),
  dataRecordSimplyId: z.string().max(64).optional(),
  trafficClass: list.optional().describe('HUMAN (default), BOT, LINK_PREVIEW, comma-separated, or ALL'),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;
