// The task types this platform runs: one line each for this area's own, and the ones other areas
// register through index.ts (registerTaskType) when their module loads.
import { bulkDeleteTask } from './bulk-delete/bulk-delete.task.ts';
import { dataExportTask } from './data-export/data-export.task.ts';
import { dataImportTask } from './data-import/data-import.task.ts';
import { documentGenerationTask } from './document-generation/document-generation.task.ts';
import { imageVariantTask } from './image-variants.task.ts';
import type { TaskTypeDefinition } from './task-types.ts';

const TASK_TYPES: readonly TaskTypeDefinition<never>[] = [dataExportTask, dataImportTask, bulkDeleteTask, documentGenerationTask, imageVariantTask] as never;

const byName = new Map<string, TaskTypeDefinition<unknown>>(TASK_TYPES.map((t) => [t.type, t as TaskTypeDefinition<unknown>]));

/** Adds another area's task type (its name must be one of KNOWN_TASK_TYPES); once per type. */
export function registerTaskType<Q>(definition: TaskTypeDefinition<Q>): void {
  const known = byName.get(definition.type);
  if (known && known !== (definition as TaskTypeDefinition<unknown>)) throw new Error(`task type ${definition.type} is registered twice`);
  byName.set(definition.type, definition as TaskTypeDefinition<unknown>);
}

export function taskTypeOf(name: string): TaskTypeDefinition<unknown> | null {
  return byName.get(name) ?? null;
}
