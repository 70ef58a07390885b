// Authoring bodies of data wizards (docs/api/data-wizards.md), validated with zod at the service
// boundary. What zod cannot know (the wizard's collection, its fields) is checked by the authoring
// service with the same `{ field, message }` details.
import { z } from 'zod';
import { type ErrorDetail, ValidationError } from '../../app/errors.ts';
import { type IdKind, simplyIdPattern } from '../../app/ids.ts';
import { dataFieldId } from '../../kernel/index.ts';
import { localizedTextSchema } from '../../app/localized-text.ts';

/**
 * What a task does when the wizard runs (docs/api/data-wizards.md "Task types"):
 * - UPDATE_DATA_RECORD writes its linked fields from `formData` to the record;
 * - VALIDATE_DATA_RECORD collects nothing and fails the run unless each linked field has a value at
 *   that point of the run (after the writes of earlier tasks);
 * - DISPLAY collects nothing and writes nothing: it shows its `config.body` and its linked fields.
 */
export const TASK_TYPES = ['UPDATE_DATA_RECORD', 'VALIDATE_DATA_RECORD', 'DISPLAY'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const MAX_WIZARDS_PER_TEAM = 500;
export const MAX_STEPS_PER_WIZARD = 50;
export const MAX_TASKS_PER_STEP = 50;
export const MAX_FIELDS_PER_TASK = 100;
export const MAX_DESCRIPTION = 2000;

const localized = localizedTextSchema.refine(
  (v) => (typeof v === 'string' ? v.trim() !== '' : Object.values(v).every((s) => s.trim() !== '')),
  'must not be blank',
);

const description = z
  .string()
  .trim()
  .max(MAX_DESCRIPTION, `at most ${MAX_DESCRIPTION} characters`)
  .nullable()
  .transform((v) => (v === '' ? null : v));

export const fieldId = z.string().regex(dataFieldId.pattern, 'must be a data field simplyId (fld-XXXX-XXXX-XXXX)');

export const taskFieldInput = z.object({ dataFieldSimplyId: fieldId, isRequired: z.boolean().default(false) }).strict();
export type TaskFieldInput = z.output<typeof taskFieldInput>;

const taskFields = z.array(taskFieldInput).max(MAX_FIELDS_PER_TASK, `at most ${MAX_FIELDS_PER_TASK} fields per task`);

const taskType = z.enum(TASK_TYPES, { message: `must be one of ${TASK_TYPES.join(', ')}` });

export const taskInput = z
  .object({
    type: taskType,
    title: localized,
    // checked per type by taskConfig
    config: z.unknown().optional(),
    fields: taskFields.default([]),
  })
  .strict();
export type TaskInput = z.output<typeof taskInput>;

export const stepInput = z
  .object({
    title: localized,
    tasks: z.array(taskInput).max(MAX_TASKS_PER_STEP, `at most ${MAX_TASKS_PER_STEP} tasks per step`).default([]),
  })
  .strict();
export type StepInput = z.output<typeof stepInput>;

export const createWizardInput = z
  .object({
    name: localized,
    description: description.optional().transform((v) => v ?? null),
    dataCollectionSimplyId: z.string().regex(simplyIdPattern(), 'must be a collection simplyId (XXXX-XXXX-XXXX)'),
    steps: z.array(stepInput).max(MAX_STEPS_PER_WIZARD, `at most ${MAX_STEPS_PER_WIZARD} steps`).default([]),
  })
  .strict();
export type CreateWizardInput = z.output<typeof createWizardInput>;

/** A 0-based place to move to (past the end: last). */
const moveTo = z.number().int('must be an integer').min(0, 'must be 0 or more');

export const updateWizardInput = z.object({ name: localized.optional(), description: description.optional() }).strict();
export const updateStepInput = z.object({ title: localized.optional(), position: moveTo.optional() }).strict();
export const updateTaskInput = z
  .object({ type: taskType.optional(), title: localized.optional(), config: z.unknown().optional(), fields: taskFields.optional(), position: moveTo.optional() })
  .strict();

export const positionInput = moveTo.nullable().optional();

export const orderInput = (kind: IdKind) =>
  z.array(z.string().regex(kind.pattern, 'malformed identifier')).max(MAX_STEPS_PER_WIZARD + MAX_TASKS_PER_STEP);

export const replaceFieldsInput = z.object({ fields: taskFields }).strict();

/** The DISPLAY body: localized text up to 10 000 characters per language. */
const displayBody = z.union([
  z.string().max(10_000),
  z.record(z.string(), z.string().max(10_000)).refine((o) => Object.keys(o).length <= 50, 'at most 50 languages'),
]);

/**
 * A task's `config` for its type: DISPLAY takes `{ body? }` (localized text); the other types take
 * no settings (`{}`). Absent or null is `{}`. Unknown keys are a 400 naming them.
 */
export function taskConfig(type: TaskType, raw: unknown, path: string): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  const details: ErrorDetail[] = [];
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('Invalid task config', [{ field: path, message: 'must be an object' }]);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (type === 'DISPLAY' && key === 'body') {
      const parsed = displayBody.safeParse(value);
      if (parsed.success) out.body = parsed.data;
      else details.push({ field: `${path}.body`, message: 'must be text (or { <language tag>: text }) of at most 10000 characters' });
    } else {
      details.push({ field: `${path}.${key}`, message: type === 'DISPLAY' ? 'unknown key; allowed: body' : `unknown key; ${type} tasks take no settings` });
    }
  }
  if (details.length > 0) throw new ValidationError('Invalid task config', details);
  return out;
}
