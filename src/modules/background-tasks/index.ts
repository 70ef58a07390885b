// The public API of the background-tasks area: all another area may import from it (test/app/module-structure.test.ts).
// Its manifest is module.ts; every other file of the folder is private to the area.
// Another area defines a task type (its name listed in task-type-names.ts), registers it when its
// module loads, and queues tasks of it from its own routes (the websites area's imports).
export { defineTaskType, type FinalStatus, type Prepared, type TaskOutcome, type TaskTypeDefinition } from './task-types.ts';
export { TaskFailedError, type TaskRun } from './task-run.ts';
export { registerTaskType } from './task-type-list.ts';
export { queueTask, taskState, type TaskState } from './task-queue.ts';
export { backgroundTaskId } from './background-tasks.ids.ts';
