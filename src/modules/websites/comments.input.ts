// Bodies of the review-comment routes (docs/api/websites.md "Review comments"), checked by the REST
// table and again by the service: 400 VALIDATION_ERROR naming the field.
import { z } from 'zod';

export const COMMENT_LIMITS = { comment: 5000, mentions: 20 } as const;
export const TARGET_DEVICES = ['DESKTOP', 'TABLET', 'MOBILE'] as const;
const text = z.string({ message: 'must be a string' }).trim().min(1, 'must not be blank').max(COMMENT_LIMITS.comment, `at most ${COMMENT_LIMITS.comment} characters`);

export const createCommentInput = z.strictObject({
  xPercent: z.number({ message: 'must be a number' }).min(0, 'must be 0-100').max(100, 'must be 0-100'),
  yPixels: z.number({ message: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more').max(1_000_000, 'at most 1000000'),
  comment: text,
  targetDevice: z.enum(TARGET_DEVICES, { message: `must be one of ${TARGET_DEVICES.join(', ')}` }).optional(),
  grapesComponentId: z.string({ message: 'must be a component id' }).regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'must be a component id').optional(),
});
export const replyInput = z.strictObject({ comment: text });

