// The bodies of the AI draft routes (docs/api/websites.md "AI drafts").
import { z } from 'zod';

const brief = z.string({ message: 'is required' }).trim().min(1, 'must not be empty').max(4000, 'at most 4,000 characters');

export const pageDraftInput = z.strictObject({
  brief,
  title: z.string().trim().min(1).max(200).optional(),
});

export const sitePlanDraftInput = z.strictObject({
  brief,
  maxPages: z.number().int().min(1).max(50).default(12),
});

export const blockDraftInput = z.strictObject({
  brief,
  count: z.number().int().min(1).max(5).default(1),
  parentId: z.string().min(1).max(64).nullable().default(null),
  index: z.number().int().min(0).max(5000).optional(),
});

export const textRewriteDraftInput = z
  .strictObject({
    componentIds: z.array(z.string().min(1).max(64)).min(1, 'name at least one component').max(50, 'at most 50 components'),
    tone: z.string().trim().min(1).max(200).optional(),
    length: z.enum(['SHORTER', 'SAME', 'LONGER']).default('SAME'),
    language: z.string().trim().min(2).max(35).optional(),
    instructions: z.string().trim().max(1000).optional(),
  })
  .refine((v) => new Set(v.componentIds).size === v.componentIds.length, { path: ['componentIds'], message: 'name each component once' });
