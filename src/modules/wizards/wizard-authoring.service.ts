// Privileged authoring of data wizards (Document 1 §4.5 "privileged authoring"): wizards, their
// steps, tasks and field links. Wizards are part of the team schema, so every change goes through
// schemaWrite: one transaction that makes the change and records a TeamSchemaVersion. Inside it the
// schema is re-read (after the team's advisory lock), so a field removed meanwhile is caught.
//
// Invariants kept here: step ranks are 0..n-1 in order and the wizard's firstStepId is the step
// at rank 0 (null without steps); task ranks and field-link ranks are 0..n-1 in order.
import { type CollectionDefinition, isDataType, loadSchemaTx, type TeamSchema } from '../../kernel/index.ts';
import { schemaWrite } from '../team-schema/index.ts';
import { labelOf } from '../views/index.ts';
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { ConflictError, type ErrorDetail, NotFoundError, ValidationError } from '../../app/errors.ts';
import { dataWizardId, dataWizardStepId, dataWizardStepTaskId } from './wizards.ids.ts';
import { WizardNotFoundError, WizardStepNotFoundError, WizardTaskNotFoundError } from './wizards.errors.ts';
import { parseInput } from '../../app/validate.ts';
import { loadWizardConfig, type WizardConfig, type WizardStep, type WizardTask } from './wizard-config.ts';
import {
  createWizardInput,
  fieldId,
  MAX_FIELDS_PER_TASK,
  MAX_STEPS_PER_WIZARD,
  MAX_TASKS_PER_STEP,
  MAX_WIZARDS_PER_TEAM,
  orderInput,
  positionInput,
  replaceFieldsInput,
  type StepInput,
  stepInput,
  type TaskFieldInput,
  taskConfig,
  taskFieldInput,
  type TaskInput,
  taskInput,
  updateStepInput,
  updateTaskInput,
  updateWizardInput,
} from './wizards.input.ts';
import { type Tx } from '../../app/transaction.ts';

/** An update that names nothing to change would only record an empty schema version. */
function requireSomething(input: object, keys: string): void {
  if (Object.values(input).every((v) => v === undefined)) throw new ValidationError(`Give at least one of ${keys}`, [{ field: 'input', message: `give at least one of ${keys}` }]);
}

function throwIfDetails(message: string, details: ErrorDetail[]): void {
  if (details.length > 0) throw new ValidationError(message, details);
}

/** The collection a wizard may work on: one of the team's, owning its records (not SMART), not archived. */
function wizardCollection(schema: TeamSchema, simplyId: string): CollectionDefinition {
  const collection = schema.collectionsBySimplyId.get(simplyId);
  if (!collection) throw new NotFoundError('Data collection', simplyId);
  if (collection.type === 'SMART') {
    throw new ValidationError(`Collection ${simplyId} is SMART: a wizard works on the collection its records are created in`, [
      { field: 'dataCollectionSimplyId', message: 'is a SMART collection' },
    ]);
  }
  if (collection.isArchived) throw new ValidationError(`Collection ${simplyId} is archived`, [{ field: 'dataCollectionSimplyId', message: 'is archived' }]);
  return collection;
}

/** Field links of one task, checked against the wizard's collection: fields of that collection, each once. */
function checkLinks(schema: TeamSchema, collection: CollectionDefinition, links: readonly TaskFieldInput[], path: string, details: ErrorDetail[]): { fieldId: bigint; isRequired: boolean }[] {
  const own = new Map(schema.fieldsOf(collection).map((f) => [f.dataFieldSimplyId, f]));
  const seen = new Set<string>();
  const out: { fieldId: bigint; isRequired: boolean }[] = [];
  links.forEach((link, i) => {
    const at = `${path}.${i}.dataFieldSimplyId`;
    const field = own.get(link.dataFieldSimplyId);
    if (!field) details.push({ field: at, message: `${link.dataFieldSimplyId} is not a field of collection ${collection.simplyId}` });
    else if (seen.has(link.dataFieldSimplyId)) details.push({ field: at, message: `${link.dataFieldSimplyId} is linked more than once` });
    else if (!isDataType(field.dataType)) details.push({ field: at, message: `${link.dataFieldSimplyId} has the unsupported data type ${field.dataType}` });
    else out.push({ fieldId: field.id, isRequired: link.isRequired });
    seen.add(link.dataFieldSimplyId);
  });
  return out;
}

interface CheckedTask {
  input: TaskInput;
  config: Record<string, unknown>;
  links: { fieldId: bigint; isRequired: boolean }[];
}

function checkTask(schema: TeamSchema, collection: CollectionDefinition, input: TaskInput, path: string, details: ErrorDetail[]): CheckedTask {
  let config: Record<string, unknown> = {};
  try {
    config = taskConfig(input.type, input.config, `${path}config`);
  } catch (error) {
    if (error instanceof ValidationError) details.push(...(error.details ?? []));
    else throw error;
  }
  return { input, config, links: checkLinks(schema, collection, input.fields, `${path}fields`, details) };
}

async function insertTask(tx: Tx, teamId: bigint, stepId: bigint, rank: number, task: CheckedTask): Promise<{ id: bigint; simplyId: string }> {
  const row = await tx.dataWizardStepTask.create({
    data: { teamId, stepId, simplyId: dataWizardStepTaskId.create(), type: task.input.type, title: task.input.title, rank, config: task.config as never },
  });
  if (task.links.length > 0) {
    await tx.dataWizardTaskField.createMany({ data: task.links.map((l, i) => ({ teamId, taskId: row.id, fieldId: l.fieldId, rank: i, isRequired: l.isRequired })) });
  }
  return row;
}

async function insertStep(tx: Tx, teamId: bigint, wizardId: bigint, rank: number, title: unknown, tasks: CheckedTask[]): Promise<{ id: bigint; simplyId: string }> {
  const step = await tx.dataWizardStep.create({ data: { teamId, wizardId, simplyId: dataWizardStepId.create(), title: title as never, rank } });
  for (const [i, task] of tasks.entries()) await insertTask(tx, teamId, step.id, i, task);
  return step;
}

/** Ranks 0..n-1 in the given order; the wizard's first step follows. */
async function renumberSteps(tx: Tx, teamId: bigint, wizardId: bigint, ordered: readonly { id: bigint; rank: number }[]): Promise<void> {
  for (const [rank, step] of ordered.entries()) {
    if (step.rank !== rank) await tx.dataWizardStep.update({ where: { id: step.id }, data: { rank } });
  }
  await tx.dataWizard.update({ where: { teamId_id: { teamId, id: wizardId } }, data: { firstStepId: ordered[0]?.id ?? null, updatedAt: new Date() } });
}

async function renumberTasks(tx: Tx, ordered: readonly { id: bigint; rank: number }[]): Promise<void> {
  for (const [rank, task] of ordered.entries()) {
    if (task.rank !== rank) await tx.dataWizardStepTask.update({ where: { id: task.id }, data: { rank } });
  }
}

/** Where a new item goes: `position` (0-based) or the end. */
function insertAt<T>(list: readonly T[], position: number | null | undefined, item: T): T[] {
  const at = position === null || position === undefined || position > list.length ? list.length : position;
  return [...list.slice(0, at), item, ...list.slice(at)];
}

/** A requested order: the listed ids first, every other one after, in its current order. */
function applyOrder<T extends { simplyId: string }>(current: readonly T[], ordered: readonly string[], label: string, field: string): T[] {
  const byId = new Map(current.map((x) => [x.simplyId, x]));
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  ordered.forEach((id, i) => {
    if (seen.has(id)) details.push({ field: `${field}.${i}`, message: `${id} appears more than once` });
    else if (!byId.has(id)) details.push({ field: `${field}.${i}`, message: `${id} is not a ${label}` });
    seen.add(id);
  });
  throwIfDetails(`Invalid order`, details);
  return [...ordered.map((id) => byId.get(id)!), ...current.filter((x) => !seen.has(x.simplyId))];
}

// ------------------------------------------------------------------------------------------
// Lookups inside the schema transaction

interface Located {
  schema: TeamSchema;
  config: WizardConfig;
  collection: CollectionDefinition;
}

async function locateWizard(tx: Tx, teamId: bigint, simplyId: string): Promise<Located> {
  const schema = await loadSchemaTx(tx, teamId);
  const config = await loadWizardConfig(tx, schema, simplyId);
  if (!config) throw new WizardNotFoundError(simplyId);
  if (!config.collection) throw new ConflictError(`The collection of data wizard ${simplyId} no longer exists; delete the wizard`);
  return { schema, config, collection: config.collection };
}

async function locateStep(tx: Tx, teamId: bigint, stepSimplyId: string): Promise<Located & { step: WizardStep }> {
  const row = await tx.dataWizardStep.findUnique({ where: { teamId_simplyId: { teamId, simplyId: stepSimplyId } }, select: { wizardId: true } });
  const wizard = row && (await tx.dataWizard.findUnique({ where: { teamId_id: { teamId, id: row.wizardId } }, select: { simplyId: true } }));
  if (!wizard) throw new WizardStepNotFoundError(stepSimplyId);
  const located = await locateWizard(tx, teamId, wizard.simplyId);
  const step = located.config.steps.find((s) => s.row.simplyId === stepSimplyId);
  if (!step) throw new WizardStepNotFoundError(stepSimplyId);
  return { ...located, step };
}

async function locateTask(tx: Tx, teamId: bigint, taskSimplyId: string): Promise<Located & { step: WizardStep; task: WizardTask }> {
  const row = await tx.dataWizardStepTask.findUnique({ where: { teamId_simplyId: { teamId, simplyId: taskSimplyId } }, select: { stepId: true } });
  const step = row && (await tx.dataWizardStep.findUnique({ where: { teamId_id: { teamId, id: row.stepId } }, select: { simplyId: true } }));
  if (!step) throw new WizardTaskNotFoundError(taskSimplyId);
  const located = await locateStep(tx, teamId, step.simplyId);
  const task = located.step.tasks.find((t) => t.row.simplyId === taskSimplyId);
  if (!task) throw new WizardTaskNotFoundError(taskSimplyId);
  return { ...located, task };
}

async function reload(ctx: RequestContext, simplyId: string): Promise<WizardConfig> {
  const team = requireTeam(ctx);
  const config = await loadWizardConfig(ctx.services.prisma, await ctx.services.schemas.get(team.id), simplyId);
  if (!config) throw new WizardNotFoundError(simplyId);
  return config;
}

function stepOf(config: WizardConfig, simplyId: string): WizardStep {
  const step = config.steps.find((s) => s.row.simplyId === simplyId);
  if (!step) throw new WizardStepNotFoundError(simplyId);
  return step;
}

function taskOf(config: WizardConfig, simplyId: string): WizardTask {
  const task = config.steps.flatMap((s) => s.tasks).find((t) => t.row.simplyId === simplyId);
  if (!task) throw new WizardTaskNotFoundError(simplyId);
  return task;
}

// ------------------------------------------------------------------------------------------
// Wizards

export async function createWizard(ctx: RequestContext, raw: unknown): Promise<WizardConfig> {
  const team = requireTeam(ctx);
  const input = parseInput(createWizardInput, raw, 'Invalid data wizard');
  const simplyId = dataWizardId.create();
  await schemaWrite(ctx, `wizard created: ${labelOf(input.name)} (${simplyId}) on collection ${input.dataCollectionSimplyId}`, async (tx) => {
    const schema = await loadSchemaTx(tx, team.id);
    const collection = wizardCollection(schema, input.dataCollectionSimplyId);
    const details: ErrorDetail[] = [];
    const steps = input.steps.map((step: StepInput, s) => ({
      title: step.title,
      tasks: step.tasks.map((task, t) => checkTask(schema, collection, task, `steps.${s}.tasks.${t}.`, details)),
    }));
    throwIfDetails('Invalid data wizard', details);
    if ((await tx.dataWizard.count({ where: { teamId: team.id } })) >= MAX_WIZARDS_PER_TEAM) {
      throw new ConflictError(`A team has at most ${MAX_WIZARDS_PER_TEAM} data wizards`);
    }
    const wizard = await tx.dataWizard.create({ data: { teamId: team.id, simplyId, name: input.name, description: input.description, collectionId: collection.id } });
    const stepIds: { id: bigint; rank: number }[] = [];
    for (const [rank, step] of steps.entries()) stepIds.push({ id: (await insertStep(tx, team.id, wizard.id, rank, step.title, step.tasks)).id, rank });
    await renumberSteps(tx, team.id, wizard.id, stepIds);
  });
  return reload(ctx, simplyId);
}

export async function updateWizard(ctx: RequestContext, simplyId: string, raw: unknown): Promise<WizardConfig> {
  const team = requireTeam(ctx);
  dataWizardId.assert(simplyId, 'dataWizardSimplyId');
  const input = parseInput(updateWizardInput, raw, 'Invalid data wizard');
  requireSomething(input, 'name, description');
  await schemaWrite(ctx, `wizard updated: ${simplyId}`, async (tx) => {
    const row = await tx.dataWizard.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } }, select: { id: true } });
    if (!row) throw new WizardNotFoundError(simplyId);
    await tx.dataWizard.update({
      where: { id: row.id },
      data: { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.description !== undefined ? { description: input.description } : {}) },
    });
  });
  return reload(ctx, simplyId);
}

export async function deleteWizard(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  dataWizardId.assert(simplyId, 'dataWizardSimplyId');
  await schemaWrite(ctx, `wizard deleted: ${simplyId}`, async (tx) => {
    const row = await tx.dataWizard.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } }, select: { id: true } });
    if (!row) throw new WizardNotFoundError(simplyId);
    // steps, tasks, links and instances cascade
    await tx.dataWizard.delete({ where: { id: row.id } });
  });
  return true;
}

// ------------------------------------------------------------------------------------------
// Steps

export async function createStep(ctx: RequestContext, wizardSimplyId: string, raw: unknown, position?: number | null): Promise<WizardStep> {
  const team = requireTeam(ctx);
  dataWizardId.assert(wizardSimplyId, 'dataWizardSimplyId');
  const input = parseInput(stepInput, raw, 'Invalid data wizard step');
  const at = parseInput(positionInput, position, 'Invalid position');
  const created = await schemaWrite(ctx, `wizard step added to ${wizardSimplyId}`, async (tx) => {
    const { schema, config, collection } = await locateWizard(tx, team.id, wizardSimplyId);
    if (config.steps.length >= MAX_STEPS_PER_WIZARD) throw new ValidationError(`A wizard has at most ${MAX_STEPS_PER_WIZARD} steps`, [{ field: 'dataWizardSimplyId', message: 'has too many steps' }]);
    const details: ErrorDetail[] = [];
    const tasks = input.tasks.map((task, t) => checkTask(schema, collection, task, `tasks.${t}.`, details));
    throwIfDetails('Invalid data wizard step', details);
    const step = await insertStep(tx, team.id, config.row.id, config.steps.length, input.title, tasks);
    const ordered = insertAt(config.steps.map((s) => ({ id: s.row.id, rank: s.row.rank })), at, { id: step.id, rank: config.steps.length });
    await renumberSteps(tx, team.id, config.row.id, ordered);
    return step.simplyId;
  });
  return stepOf(await reload(ctx, wizardSimplyId), created);
}

export async function updateStep(ctx: RequestContext, stepSimplyId: string, raw: unknown): Promise<WizardStep> {
  const team = requireTeam(ctx);
  dataWizardStepId.assert(stepSimplyId, 'dataWizardStepSimplyId');
  const input = parseInput(updateStepInput, raw, 'Invalid data wizard step');
  requireSomething(input, 'title, position');
  const wizard = await schemaWrite(ctx, `wizard step updated: ${stepSimplyId}`, async (tx) => {
    const { config, step } = await locateStep(tx, team.id, stepSimplyId);
    if (input.title !== undefined) await tx.dataWizardStep.update({ where: { id: step.row.id }, data: { title: input.title } });
    if (input.position !== undefined) {
      // moved: the others keep their order around it, and the first step follows
      const others = config.steps.filter((s) => s !== step).map((s) => ({ id: s.row.id, rank: s.row.rank }));
      await renumberSteps(tx, team.id, config.row.id, insertAt(others, input.position, { id: step.row.id, rank: step.row.rank }));
    }
    return config.row.simplyId;
  });
  return stepOf(await reload(ctx, wizard), stepSimplyId);
}

export async function deleteStep(ctx: RequestContext, stepSimplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  dataWizardStepId.assert(stepSimplyId, 'dataWizardStepSimplyId');
  await schemaWrite(ctx, `wizard step deleted: ${stepSimplyId}`, async (tx) => {
    const { config, step } = await locateStep(tx, team.id, stepSimplyId);
    await tx.dataWizardStep.delete({ where: { id: step.row.id } });
    await renumberSteps(tx, team.id, config.row.id, config.steps.filter((s) => s !== step).map((s) => ({ id: s.row.id, rank: s.row.rank })));
  });
  return true;
}

export async function reorderSteps(ctx: RequestContext, wizardSimplyId: string, ordered: unknown): Promise<WizardConfig> {
  const team = requireTeam(ctx);
  dataWizardId.assert(wizardSimplyId, 'dataWizardSimplyId');
  const ids = parseInput(orderInput(dataWizardStepId), ordered, 'Invalid step order');
  await schemaWrite(ctx, `wizard steps reordered in ${wizardSimplyId}`, async (tx) => {
    const { config } = await locateWizard(tx, team.id, wizardSimplyId);
    const steps = config.steps.map((s) => ({ id: s.row.id, rank: s.row.rank, simplyId: s.row.simplyId }));
    await renumberSteps(tx, team.id, config.row.id, applyOrder(steps, ids, `step of wizard ${wizardSimplyId}`, 'orderedStepSimplyIds'));
  });
  return reload(ctx, wizardSimplyId);
}

/** Makes a step the first one: it moves to the front, the others keep their order. */
export async function setFirstStep(ctx: RequestContext, stepSimplyId: string): Promise<WizardConfig> {
  const team = requireTeam(ctx);
  dataWizardStepId.assert(stepSimplyId, 'dataWizardStepSimplyId');
  const wizard = await schemaWrite(ctx, `wizard first step set: ${stepSimplyId}`, async (tx) => {
    const { config, step } = await locateStep(tx, team.id, stepSimplyId);
    const steps = config.steps.map((s) => ({ id: s.row.id, rank: s.row.rank, simplyId: s.row.simplyId }));
    await renumberSteps(tx, team.id, config.row.id, applyOrder(steps, [step.row.simplyId], 'step', 'dataWizardStepSimplyId'));
    return config.row.simplyId;
  });
  return reload(ctx, wizard);
}

// ------------------------------------------------------------------------------------------
// Tasks

export async function createTask(ctx: RequestContext, stepSimplyId: string, raw: unknown, position?: number | null): Promise<WizardTask> {
  const team = requireTeam(ctx);
  dataWizardStepId.assert(stepSimplyId, 'dataWizardStepSimplyId');
  const input = parseInput(taskInput, raw, 'Invalid data wizard step task');
  const at = parseInput(positionInput, position, 'Invalid position');
  const created = await schemaWrite(ctx, `wizard task added to step ${stepSimplyId}`, async (tx) => {
    const { schema, config, collection, step } = await locateStep(tx, team.id, stepSimplyId);
    if (step.tasks.length >= MAX_TASKS_PER_STEP) throw new ValidationError(`A step has at most ${MAX_TASKS_PER_STEP} tasks`, [{ field: 'dataWizardStepSimplyId', message: 'has too many tasks' }]);
    const details: ErrorDetail[] = [];
    const task = checkTask(schema, collection, input, '', details);
    throwIfDetails('Invalid data wizard step task', details);
    const row = await insertTask(tx, team.id, step.row.id, step.tasks.length, task);
    await renumberTasks(tx, insertAt(step.tasks.map((t) => ({ id: t.row.id, rank: t.row.rank })), at, { id: row.id, rank: step.tasks.length }));
    return { wizard: config.row.simplyId, task: row.simplyId };
  });
  return taskOf(await reload(ctx, created.wizard), created.task);
}

export async function updateTask(ctx: RequestContext, taskSimplyId: string, raw: unknown): Promise<WizardTask> {
  const team = requireTeam(ctx);
  dataWizardStepTaskId.assert(taskSimplyId, 'dataWizardStepTaskSimplyId');
  const input = parseInput(updateTaskInput, raw, 'Invalid data wizard step task');
  requireSomething(input, 'type, title, config, fields, position');
  const wizard = await schemaWrite(ctx, `wizard task updated: ${taskSimplyId}`, async (tx) => {
    const { schema, config, collection, step, task } = await locateTask(tx, team.id, taskSimplyId);
    const type = input.type ?? (task.row.type as TaskInput['type']);
    const details: ErrorDetail[] = [];
    // a type change re-checks the stored settings unless new ones are given
    let config_: Record<string, unknown> | undefined;
    if (input.config !== undefined || input.type !== undefined) {
      try {
        config_ = taskConfig(type, input.config !== undefined ? input.config : task.row.config, 'config');
      } catch (error) {
        if (error instanceof ValidationError) details.push(...(error.details ?? []));
        else throw error;
      }
    }
    // new field links replace the task's (order and isRequired)
    const links = input.fields !== undefined ? checkLinks(schema, collection, input.fields, 'fields', details) : undefined;
    throwIfDetails('Invalid data wizard step task', details);
    await tx.dataWizardStepTask.update({
      where: { id: task.row.id },
      data: { type, ...(input.title !== undefined ? { title: input.title } : {}), ...(config_ !== undefined ? { config: config_ as never } : {}) },
    });
    if (links !== undefined) await writeLinks(tx, team.id, task.row.id, links);
    if (input.position !== undefined) {
      const others = step.tasks.filter((t) => t !== task).map((t) => ({ id: t.row.id, rank: t.row.rank }));
      await renumberTasks(tx, insertAt(others, input.position, { id: task.row.id, rank: task.row.rank }));
    }
    return config.row.simplyId;
  });
  return taskOf(await reload(ctx, wizard), taskSimplyId);
}

export async function deleteTask(ctx: RequestContext, taskSimplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  dataWizardStepTaskId.assert(taskSimplyId, 'dataWizardStepTaskSimplyId');
  await schemaWrite(ctx, `wizard task deleted: ${taskSimplyId}`, async (tx) => {
    const { step, task } = await locateTask(tx, team.id, taskSimplyId);
    await tx.dataWizardStepTask.delete({ where: { id: task.row.id } });
    await renumberTasks(tx, step.tasks.filter((t) => t !== task).map((t) => ({ id: t.row.id, rank: t.row.rank })));
  });
  return true;
}

export async function reorderTasks(ctx: RequestContext, stepSimplyId: string, ordered: unknown): Promise<WizardStep> {
  const team = requireTeam(ctx);
  dataWizardStepId.assert(stepSimplyId, 'dataWizardStepSimplyId');
  const ids = parseInput(orderInput(dataWizardStepTaskId), ordered, 'Invalid task order');
  const wizard = await schemaWrite(ctx, `wizard tasks reordered in step ${stepSimplyId}`, async (tx) => {
    const { config, step } = await locateStep(tx, team.id, stepSimplyId);
    const tasks = step.tasks.map((t) => ({ id: t.row.id, rank: t.row.rank, simplyId: t.row.simplyId }));
    await renumberTasks(tx, applyOrder(tasks, ids, `task of step ${stepSimplyId}`, 'orderedTaskSimplyIds'));
    return config.row.simplyId;
  });
  return stepOf(await reload(ctx, wizard), stepSimplyId);
}

// ------------------------------------------------------------------------------------------
// Field links

async function writeLinks(tx: Tx, teamId: bigint, taskId: bigint, links: readonly { fieldId: bigint; isRequired: boolean }[]): Promise<void> {
  await tx.dataWizardTaskField.deleteMany({ where: { teamId, taskId } });
  if (links.length > 0) await tx.dataWizardTaskField.createMany({ data: links.map((l, rank) => ({ teamId, taskId, fieldId: l.fieldId, rank, isRequired: l.isRequired })) });
}

function currentLinks(task: WizardTask): TaskFieldInput[] {
  return task.fields.map((f) => ({ dataFieldSimplyId: f.field.dataFieldSimplyId, isRequired: f.isRequired }));
}

/** Replaces a task's field links (order, required flags) with the given list. */
export async function setTaskFields(ctx: RequestContext, taskSimplyId: string, fields: unknown): Promise<WizardTask> {
  const team = requireTeam(ctx);
  dataWizardStepTaskId.assert(taskSimplyId, 'dataWizardStepTaskSimplyId');
  const input = parseInput(replaceFieldsInput, { fields }, 'Invalid task fields');
  return changeLinks(ctx, team.id, taskSimplyId, `wizard task fields set: ${taskSimplyId}`, () => input.fields);
}

/** Links one field (appended), or updates its isRequired when it is linked already. */
export async function addTaskField(ctx: RequestContext, taskSimplyId: string, raw: unknown): Promise<WizardTask> {
  const team = requireTeam(ctx);
  dataWizardStepTaskId.assert(taskSimplyId, 'dataWizardStepTaskSimplyId');
  const link = parseInput(taskFieldInput, raw, 'Invalid task field');
  return changeLinks(ctx, team.id, taskSimplyId, `wizard task field linked: ${link.dataFieldSimplyId} to ${taskSimplyId}`, (task) => {
    const links = currentLinks(task);
    const existing = links.find((l) => l.dataFieldSimplyId === link.dataFieldSimplyId);
    if (existing) existing.isRequired = link.isRequired;
    else links.push(link);
    return links;
  }, 'fields');
}

export async function removeTaskField(ctx: RequestContext, taskSimplyId: string, dataFieldSimplyId: string): Promise<WizardTask> {
  const team = requireTeam(ctx);
  dataWizardStepTaskId.assert(taskSimplyId, 'dataWizardStepTaskSimplyId');
  parseInput(fieldId, dataFieldSimplyId, 'Invalid dataFieldSimplyId');
  return changeLinks(ctx, team.id, taskSimplyId, `wizard task field unlinked: ${dataFieldSimplyId} from ${taskSimplyId}`, (task) => {
    const links = currentLinks(task);
    if (!links.some((l) => l.dataFieldSimplyId === dataFieldSimplyId)) throw new NotFoundError(`Field link ${dataFieldSimplyId} of task`, taskSimplyId);
    return links.filter((l) => l.dataFieldSimplyId !== dataFieldSimplyId);
  });
}

async function changeLinks(
  ctx: RequestContext,
  teamId: bigint,
  taskSimplyId: string,
  summary: string,
  next: (task: WizardTask) => TaskFieldInput[],
  path = 'fields',
): Promise<WizardTask> {
  const wizard = await schemaWrite(ctx, summary, async (tx) => {
    const { schema, config, collection, task } = await locateTask(tx, teamId, taskSimplyId);
    const links = next(task);
    if (links.length > MAX_FIELDS_PER_TASK) throw new ValidationError(`A task links at most ${MAX_FIELDS_PER_TASK} fields`, [{ field: path, message: `at most ${MAX_FIELDS_PER_TASK} fields` }]);
    const details: ErrorDetail[] = [];
    const checked = checkLinks(schema, collection, links, path, details);
    throwIfDetails('Invalid task fields', details);
    await writeLinks(tx, teamId, task.row.id, checked);
    return config.row.simplyId;
  });
  return taskOf(await reload(ctx, wizard), taskSimplyId);
}
