// The contract every task type implements, and the task types this platform runs. A type
// validates its queueData and checks the starter's permission when the task is created (prepare),
// then does its work in a worker (run) through a TaskRun: progress, error entries, notes on the task.
import type { RequestContext } from '../../app/context.ts';
import type { TaskRun } from './task-run.ts';
import type { TaskTypeName } from './task-type-names.ts';

export type FinalStatus = 'COMPLETED' | 'FAILED' | 'PARTIAL_SUCCESS';

export interface Prepared<Q> {
  /** the normalized queueData to store (ids, not rows) */
  queueData: Q;
  /** kept on the task, never answered (scope fingerprint, storage key) */
  internal?: Record<string, unknown>;
  /** known ahead (selected records, rows of the file) */
  totalCount?: number | null;
}

export interface TaskOutcome {
  /** public result fields (sanitized before they are stored) */
  result: Record<string, unknown>;
  /** default: COMPLETED without error entries, PARTIAL_SUCCESS with some */
  status?: FinalStatus;
}

export interface TaskTypeDefinition<Q = unknown> {
  type: TaskTypeName;
  /** false: only the platform starts it (POST answers TASK_TYPE_NOT_SUPPORTED) */
  creatableByApi: boolean;
  /** validates queueData (400 VALIDATION_ERROR with details) and checks the starter's permission (403/404) */
  prepare(ctx: RequestContext, queueData: unknown): Promise<Prepared<Q>>;
  /** the work, in a worker; may run again after a crash: resume from what committed (notes on the task, rows), never apply twice */
  run(run: TaskRun<Q>): Promise<TaskOutcome>;
  /** the result is a private file downloadable by the starter (exports): checks the scope still holds */
  checkResultAccess?(ctx: RequestContext, task: { queueData: Q; internal: Record<string, unknown> }): Promise<void>;
}

export function defineTaskType<Q>(definition: TaskTypeDefinition<Q>): TaskTypeDefinition<Q> {
  return definition;
}
