// Inputs of the task routes, shared by GraphQL (the service parses them) and the REST table.
import { z } from 'zod';
import { KNOWN_TASK_TYPES } from './task-type-names.ts';

export const TASK_STATUSES = ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED', 'PARTIAL_SUCCESS'] as const;
export const FINAL_STATUSES = ['COMPLETED', 'FAILED', 'PARTIAL_SUCCESS'] as const;
export const TASK_LIMITS = { defaultLimit: 50, maxLimit: 500, maxErrorsInDetail: 100, downloadSeconds: 60 } as const;

export const taskTypeName = z.enum(KNOWN_TASK_TYPES, { message: `must be one of ${KNOWN_TASK_TYPES.join(', ')}` });

export const createTaskInput = z
  .object({
    enumBackgroundTaskTypeId: taskTypeName,
    queueData: z.record(z.string(), z.unknown()).optional().describe('the task type\'s input (docs/api/background-tasks.md "Task types")'),
  })
  .strict();

export const listTasksQuery = {
  status: z.enum(TASK_STATUSES, { message: `must be one of ${TASK_STATUSES.join(', ')}` }).optional(),
  enumBackgroundTaskTypeId: taskTypeName.optional(),
  teamIntegrationSimplyId: z.string().max(100).optional(),
  includeArchived: z.boolean().optional().describe('archived tasks (clearedAt set) are left out unless true'),
};
export const listTasksInput = z.object(listTasksQuery);
