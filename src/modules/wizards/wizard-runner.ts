// Running a wizard (or one of its steps) on a record, server-side. Used by
// POST /v1/data-wizards/{id}/execute and by the automations' RUN_WIZARD_STEP action.
//
// Authorization is the caller's: execute checks the RUN data permission (wizards.service.ts), an
// automation decides for its acting principal. The runner checks what is true for every caller:
// the wizard, the step and the record exist in the team and the record is in the wizard's collection.
//
// A run is all-or-nothing. Problems found before it starts are thrown as ApiErrors (400, 404, 409)
// and leave nothing behind. Once started, a DataWizardInstance (RUNNING) exists; the tasks then run
// in order inside ONE transaction that locks the record, validates each task against the values as
// earlier tasks left them, writes the record through the data core's write path (audit entry,
// DATA_RECORD_UPDATED outbox event, subscription NOTIFY), marks the instance COMPLETED and inserts
// the WIZARD_COMPLETED event. A failing task rolls all of that back; a second transaction then marks
// the instance FAILED with the reasons and inserts WIZARD_COMPLETION_FAILED.
//
// With an `effectKey` (an automation's RUN_WIZARD_STEP) a successful run is a keyed effect
// (src/app/effects.ts): the key is claimed in the run's transaction and settled with its result, so
// a run repeated after a crash changes nothing and answers with the first run's result. A failed
// run claims nothing: trying it again is a new run.
//
// With `admit` (an external-access link) the run's transaction first asks whether it may go on
// (the link counts a use there, under its row lock, so concurrent submissions cannot exceed its
// uses). A refusal (RunNotAdmittedError) drops the run as if it had never started: its instance is
// deleted, no event is written, and the error is thrown to the caller.
import type { Principal } from '../../app/auth/principal.ts';
import {
  accessTo,
  applyRecordRewrites,
  type ChangeActor,
  checkReferences,
  encodeRecordFields,
  type FieldDefinition,
  findRecords,
  lockRecords,
  type PreparedFields,
  type TeamSchema,
  toValidationError,
} from '../../kernel/index.ts';
import type { RequestSource, Services } from '../../app/context.ts';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { dataWizardId, dataWizardStepId, dataWizardInstanceId } from './wizards.ids.ts';
import { WizardNotFoundError, WizardStepNotFoundError } from './wizards.errors.ts';
import { firstStep, loadWizardConfig, type WizardConfig, type WizardStep, type WizardTask } from './wizard-config.ts';
import { insertCompletionEvent, type RunErrorDetail } from './wizard-events.ts';
import { inTransaction } from '../../app/transaction.ts';
import { claimEffect, findEffect } from '../../app/effects.ts';

export interface RunWizardInput {
  teamId: bigint;
  dataWizardSimplyId: string;
  dataRecordSimplyId: string;
  /** keyed by dataFieldSimplyId; validated by field type */
  formData?: Record<string, unknown>;
  /** run only this step (RUN_WIZARD_STEP); default: every step from firstStepId on */
  dataWizardStepSimplyId?: string;
  /** who runs it: the caller, or the automation's acting principal */
  principal: Principal;
  source: RequestSource;
  requestId?: string;
  /** automation loop guard: how many automation-caused writes led here */
  automationDepth?: number;
  /** the run is a keyed effect: a repeat of a key a successful run committed answers with that run's result */
  effectKey?: string;
  /**
   * Runs first in the run's transaction (after the effect claim); throwing RunNotAdmittedError drops
   * the run. Whatever it writes commits only with a successful run.
   */
  admit?: (db: Parameters<typeof insertCompletionEvent>[0]) => Promise<void>;
}

/** Thrown by `admit`: the run may not happen (its instance is deleted, no event is written). */
export class RunNotAdmittedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RunNotAdmittedError';
  }
}

export interface RunWizardResult {
  success: boolean;
  message: string;
  dataWizardSimplyId: string;
  dataRecordSimplyId: string;
  dataWizardInstanceSimplyId: string;
  /** why a run failed (empty on success) */
  errors: RunErrorDetail[];
  /** the completion event (wizard:<instance>:completion:v1) */
  eventId: string;
}

/** The audit log's `source` for record writes made by a wizard run. */
export const WIZARD_AUDIT_SOURCE = 'WIZARD';

/** The key was claimed by a run that committed while this one was starting: this one is dropped. */
class AlreadyRun extends Error {
  readonly result: RunWizardResult;
  constructor(result: RunWizardResult) {
    super('the wizard run was made under this key before');
    this.result = result;
  }
}

/** Every keyed wizard run settles its key with its result: a key without one was claimed by another effect. */
function keyTakenElsewhere(key: string): never {
  throw new ConflictError(`The effect key ${key} was used for something other than a wizard run`);
}

/** A task failed: the run stops there and nothing it wrote is kept. */
class TaskFailure extends Error {
  readonly details: RunErrorDetail[];
  constructor(message: string, details: RunErrorDetail[]) {
    super(message);
    this.details = details;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isEmptyValue = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);


/** The steps a run goes through: one step, or every step from the first one in order. */
function stepsToRun(config: WizardConfig, stepSimplyId: string | undefined): WizardStep[] {
  if (stepSimplyId !== undefined) {
    const step = config.steps.find((s) => s.row.simplyId === stepSimplyId);
    if (!step) throw new WizardStepNotFoundError(stepSimplyId);
    return [step];
  }
  const first = firstStep(config);
  return first ? config.steps.slice(first.position) : [];
}

/** The field simplyIds `formData` may carry: fields that UPDATE_DATA_RECORD tasks of the run collect. */
function collectedFields(steps: readonly WizardStep[]): Set<string> {
  const out = new Set<string>();
  for (const step of steps) for (const task of step.tasks) if (task.type === 'UPDATE_DATA_RECORD') for (const f of task.fields) out.add(f.field.dataFieldSimplyId);
  return out;
}

/** Checks what the caller sent before anything starts; returns the wizard, steps and form data. */
async function prepareRun(services: Services, schema: TeamSchema, input: RunWizardInput) {
  dataWizardId.assert(input.dataWizardSimplyId, 'dataWizardSimplyId');
  if (typeof input.dataRecordSimplyId !== 'string' || input.dataRecordSimplyId === '') {
    throw new ValidationError('dataRecordSimplyId is required', [{ field: 'dataRecordSimplyId', message: 'is required' }]);
  }
  assertDataSimplyId(input.dataRecordSimplyId, 'dataRecordSimplyId');
  if (input.dataWizardStepSimplyId !== undefined) dataWizardStepId.assert(input.dataWizardStepSimplyId, 'dataWizardStepSimplyId');
  const formData = input.formData ?? {};
  if (!isPlainObject(formData)) throw new ValidationError('formData must be an object keyed by field simplyId', [{ field: 'formData', message: 'must be an object' }]);

  const config = await loadWizardConfig(services.prisma, schema, input.dataWizardSimplyId);
  if (!config) throw new WizardNotFoundError(input.dataWizardSimplyId);
  const collection = config.collection;
  if (!collection) throw new ConflictError(`The collection of data wizard ${input.dataWizardSimplyId} no longer exists`);
  const steps = stepsToRun(config, input.dataWizardStepSimplyId);
  if (steps.length === 0) throw new ConflictError(`Data wizard ${input.dataWizardSimplyId} has no steps to run`);

  const collected = collectedFields(steps);
  const unknown = Object.keys(formData).filter((key) => !collected.has(key));
  if (unknown.length > 0) {
    throw new ValidationError(`formData has keys this run does not collect: ${unknown.join(', ')}`, unknown.map((key) => ({
      field: `formData.${key}`,
      message: 'is not a field that an UPDATE_DATA_RECORD task of this run collects',
    })));
  }

  const [record] = await findRecords(services.pool, schema.teamId, [input.dataRecordSimplyId]);
  if (!record || record.collectionId !== collection.id) throw new NotFoundError('Data record', input.dataRecordSimplyId);
  return { config, collection, steps, formData, record };
}

async function teamSimplyIdOf(services: Services, input: RunWizardInput): Promise<string> {
  const team = input.principal.team;
  if (team && team.id === input.teamId) return team.simplyId;
  const row = await services.prisma.team.findUniqueOrThrow({ where: { id: input.teamId }, select: { simplyId: true } });
  return row.simplyId;
}

interface TaskContext {
  step: WizardStep;
  task: WizardTask;
}

function where({ step, task }: TaskContext, field?: FieldDefinition): Pick<RunErrorDetail, 'dataWizardStepSimplyId' | 'dataWizardStepTaskSimplyId' | 'dataFieldSimplyId' | 'field'> {
  return {
    dataWizardStepSimplyId: step.row.simplyId,
    dataWizardStepTaskSimplyId: task.row.simplyId,
    ...(field ? { dataFieldSimplyId: field.dataFieldSimplyId, field: `formData.${field.dataFieldSimplyId}` } : {}),
  };
}

function failTask(at: TaskContext, details: RunErrorDetail[]): never {
  const first = details[0]!;
  const subject = first.dataFieldSimplyId ? `${first.dataFieldSimplyId} ${first.message}` : first.message;
  throw new TaskFailure(`The wizard stopped at task ${at.task.row.simplyId} (${at.task.type}) of step ${at.step.row.simplyId}: ${subject}`, details);
}

/** UPDATE_DATA_RECORD: the task's linked fields from formData, validated like a record update. */
async function runUpdateTask(db: Parameters<typeof checkReferences>[0], files: Services['fileReferences'], at: TaskContext, collectionAccess: ReturnType<typeof accessTo>, formData: Record<string, unknown>, values: Record<string, unknown>): Promise<void> {
  const fields = at.task.fields.map((f) => f.field);
  const supplied = Object.fromEntries(fields.filter((f) => Object.hasOwn(formData, f.dataFieldSimplyId)).map((f) => [f.dataFieldSimplyId, formData[f.dataFieldSimplyId]]));
  const result = encodeRecordFields(fields, supplied, { mode: 'update' });
  const details: RunErrorDetail[] = [];
  const byId = new Map(fields.map((f) => [f.dataFieldSimplyId, f]));
  for (const error of result.errors) details.push({ ...where(at, error.field ? byId.get(error.field) : undefined), message: error.message });
  for (const link of at.task.fields) {
    const id = link.field.dataFieldSimplyId;
    if (link.isRequired && isEmptyValue(result.values[id]) && !details.some((d) => d.dataFieldSimplyId === id)) {
      details.push({ ...where(at, link.field), message: 'is required by this task' });
    }
  }
  if (details.length > 0) failTask(at, details);
  const prepared: PreparedFields = { result, error: toValidationError(result, { path: 'formData' }) };
  await checkReferences(db, files, collectionAccess, [prepared], ['formData']);
  if (prepared.error) {
    const refDetails = (prepared.error.details ?? []).map((d: ErrorDetail) => {
      const id = d.field?.startsWith('formData.') ? d.field.slice('formData.'.length) : undefined;
      return { ...where(at, id ? byId.get(id) : undefined), message: d.message };
    });
    failTask(at, refDetails.length > 0 ? refDetails : [{ ...where(at), message: prepared.error.message }]);
  }
  for (const [id, value] of Object.entries(result.values)) {
    if (value === null) delete values[id];
    else values[id] = value;
  }
}

/** VALIDATE_DATA_RECORD: every linked field must have a value at this point of the run. */
function runValidateTask(at: TaskContext, values: Record<string, unknown>): void {
  const missing = at.task.fields.filter((f) => isEmptyValue(values[f.field.dataFieldSimplyId]));
  if (missing.length > 0) failTask(at, missing.map((f) => ({ ...where(at), dataFieldSimplyId: f.field.dataFieldSimplyId, message: 'has no value' })));
}

export async function runWizard(services: Services, input: RunWizardInput): Promise<RunWizardResult> {
  // a repeat is answered before anything is checked or started again
  const earlier = input.effectKey ? await findEffect<RunWizardResult>(services.pool, input.teamId, input.effectKey) : null;
  if (earlier) return earlier.result ?? keyTakenElsewhere(input.effectKey!);
  const schema = await services.schemas.get(input.teamId);
  const { config, collection, steps, formData, record } = await prepareRun(services, schema, input);
  const teamSimplyId = await teamSimplyIdOf(services, input);
  const p = input.principal;
  const instanceSimplyId = dataWizardInstanceId.create();
  const { rows } = await services.pool.query(
    `INSERT INTO "DataWizardInstance" ("simplyId", "teamId", "wizardId", "recordId", status, "formData", "actorKind", "actorId")
     VALUES ($1, $2, $3, $4, 'RUNNING', $5::jsonb, $6, $7) RETURNING id`,
    [instanceSimplyId, input.teamId, config.row.id, record.id, JSON.stringify(formData), p.kind, p.credentialId],
  );
  const instanceId = BigInt(rows[0].id);
  const base = {
    dataWizardSimplyId: config.row.simplyId,
    dataWizardInstanceSimplyId: instanceSimplyId,
    dataRecordSimplyId: record.simplyId,
    dataCollectionSimplyId: collection.simplyId,
    ...(input.dataWizardStepSimplyId !== undefined ? { dataWizardStepSimplyId: input.dataWizardStepSimplyId } : {}),
  };
  // the record events take the loop-guard depth from an automation principal (record-changes.ts);
  // the completion event carries the same depth
  const completionActor = { principal: p, automationDepth: input.automationDepth ?? p.automation?.depth };
  const actor: ChangeActor = { teamId: input.teamId, teamSimplyId, principal: p, source: WIZARD_AUDIT_SOURCE, requestId: input.requestId ?? null };
  const complete = async (db: Parameters<typeof insertCompletionEvent>[0], success: boolean, message: string, errors: RunErrorDetail[]) => {
    await db.query(
      `UPDATE "DataWizardInstance" SET status = $3::"DataWizardInstanceStatus", "completedAt" = now(), "errorDetails" = $4::jsonb WHERE "teamId" = $1 AND id = $2`,
      [input.teamId, instanceId, success ? 'COMPLETED' : 'FAILED', success ? null : JSON.stringify(errors)],
    );
    return insertCompletionEvent(db, input.teamId, collection.id, { ...base, success, message, ...(success ? {} : { errorDetails: errors }) }, completionActor);
  };

  const doneMessage = input.dataWizardStepSimplyId !== undefined ? `Step ${input.dataWizardStepSimplyId} completed` : 'Wizard completed';
  try {
    const result = await inTransaction(services.pool, async (db) => {
      // first, so a concurrent run with the same key waits here and then finds this one's result
      const claim = input.effectKey ? await claimEffect<RunWizardResult>(db, input.teamId, input.effectKey) : null;
      if (claim && !claim.claimed) throw new AlreadyRun(claim.result ?? keyTakenElsewhere(input.effectKey!));
      if (input.admit) await input.admit(db);
      const [before] = await lockRecords(db, input.teamId, [record.simplyId]);
      if (!before || before.collectionId !== collection.id) throw new TaskFailure(`Record ${record.simplyId} no longer exists`, [{ message: 'the record was deleted while the wizard ran' }]);
      const access = accessTo(p, schema, collection);
      const values: Record<string, unknown> = { ...before.values };
      for (const step of steps) {
        for (const task of step.tasks) {
          const at = { step, task };
          if (task.type === 'UPDATE_DATA_RECORD') await runUpdateTask(db, services.fileReferences, at, access, formData, values);
          else if (task.type === 'VALIDATE_DATA_RECORD') runValidateTask(at, values);
          else if (task.type !== 'DISPLAY') failTask(at, [{ ...where(at), message: `has the unsupported task type ${task.type}` }]);
        }
      }
      // the kernel's update step: memberships, audit, events and outbox as for any record update
      await applyRecordRewrites(db, services, schema, actor, [{ before, collection, values }]);
      const done: RunWizardResult = { success: true, message: doneMessage, ...base, errors: [], eventId: await complete(db, true, doneMessage, []) };
      if (claim?.claimed) await claim.settle(done);
      return done;
    });
    void services.outbox.nudge();
    return result;
  } catch (error) {
    if (error instanceof AlreadyRun || error instanceof RunNotAdmittedError) {
      // this run never happened: its instance, started before the claim, goes
      await services.pool.query(`DELETE FROM "DataWizardInstance" WHERE "teamId" = $1 AND id = $2`, [input.teamId, instanceId]);
      if (error instanceof RunNotAdmittedError) throw error;
      return error.result;
    }
    let message: string;
    let errors: RunErrorDetail[];
    if (error instanceof TaskFailure) {
      message = error.message;
      errors = error.details;
    } else {
      services.logger.error({ err: error, dataWizardInstanceSimplyId: instanceSimplyId }, 'data wizard run failed');
      message = 'The wizard could not write the record; nothing was changed';
      errors = [{ message: 'internal error while writing the record' }];
    }
    const eventId = await inTransaction(services.pool, (db) => complete(db, false, message, errors));
    void services.outbox.nudge();
    return { success: false, message, ...base, errors, eventId };
  }
}

