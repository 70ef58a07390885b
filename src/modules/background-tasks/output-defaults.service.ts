// Where a task type's per-record output goes when the task does not say (docs/api/background-tasks.md
// "Record history and outputs"): one default per collection, task type, outputKey and template
// ('' = every template), naming a file field and a write mode. Setting or removing one needs edit
// access to the collection and to the field; the eligible destinations are the collection's file
// fields the caller may edit.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import type { TaskOutputDefault } from '../../generated/prisma/client.ts';
import {
  canReadCollection,
  type CollectionAccess,
  type CollectionDefinition,
  collectionFor,
  type FieldDefinition,
  type TeamSchema,
} from '../../kernel/index.ts';
import { findTemplate, lineageOf } from '../content-templates/index.ts';
import { outputDefaultId } from './background-tasks.ids.ts';
import { eligibleDestinationsInput, FILE_FIELD_TYPES, upsertOutputDefaultInput, WRITE_MODES, type WriteMode } from './record-outputs.input.ts';

/** An output default as both faces show it. */
export interface OutputDefaultView {
  defaultSimplyId: string;
  dataCollectionSimplyId: string;
  enumBackgroundTaskTypeId: string;
  outputKey: string;
  sourceContentTemplateSimplyId: string | null;
  dataFieldSimplyId: string;
  writeMode: string;
  isEnabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function defaultView(row: TaskOutputDefault, collectionSimplyId: string): OutputDefaultView {
  return {
    defaultSimplyId: row.simplyId,
    dataCollectionSimplyId: collectionSimplyId,
    enumBackgroundTaskTypeId: row.taskType,
    outputKey: row.outputKey,
    sourceContentTemplateSimplyId: row.templateKey === '' ? null : row.templateKey,
    dataFieldSimplyId: row.dataFieldSimplyId,
    writeMode: row.writeMode,
    isEnabled: row.isEnabled,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The write modes a field takes: a single-file field holds one file, so only REPLACE. */
export function writeModesOf(field: Pick<FieldDefinition, 'dataType'>): WriteMode[] {
  return field.dataType === 'MULTI_FILE' ? [...WRITE_MODES] : ['REPLACE'];
}

/**
 * A destination the caller may write: a file field of the collection (400 otherwise), editable by
 * the caller (403 otherwise), taking the write mode (400 otherwise). `at` names the input field.
 */
export function checkDestination(access: CollectionAccess, dataFieldSimplyId: string, mode: WriteMode, at: { field: string; writeMode: string }): FieldDefinition {
  const field = access.fields.find((f) => f.dataFieldSimplyId === dataFieldSimplyId);
  if (!field || !FILE_FIELD_TYPES.has(field.dataType)) {
    const why = field ? `is a ${field.dataType} field; a document goes into a SINGLE_FILE or MULTI_FILE field` : `is not a field of collection ${access.collection.simplyId}`;
    throw new ValidationError(`${at.field} ${why}`, [{ field: at.field, message: why }]);
  }
  if (!access.editable.has(field.dataFieldSimplyId)) {
    throw new PermissionDeniedError(`Your role cannot edit field ${field.dataFieldSimplyId} of collection ${access.collection.simplyId}, so documents cannot be written into it for you`);
  }
  if (!writeModesOf(field).includes(mode)) {
    throw new ValidationError(`${at.writeMode} APPEND needs a MULTI_FILE field`, [{ field: at.writeMode, message: `field ${field.dataFieldSimplyId} holds a single file: use REPLACE` }]);
  }
  return field;
}

/**
 * A document template the caller may use, whose collection is `collection` or one of its parents
 * (the templates a collection offers); 404/403 as content templates answer them, 400 otherwise.
 */
export async function documentTemplateFor(ctx: RequestContext, simplyId: string, schema: TeamSchema, collection: CollectionDefinition, field: string) {
  const { row } = await findTemplate(ctx, simplyId, 'VIEW');
  if (row.kind !== 'DOCUMENT') throw new ValidationError(`${field} must be a document template`, [{ field, message: `${simplyId} is a ${row.kind} template` }]);
  if (!lineageOf(schema, collection).some((c) => c.id === row.dataCollectionId)) {
    throw new ValidationError(`${field} is not offered by collection ${collection.simplyId}`, [
      { field, message: `the template belongs to another collection than ${collection.simplyId} or its parents` },
    ]);
  }
  return row;
}

/** The default a task uses: the template's own (enabled) first, then the one for every template. */
export async function applicableDefault(ctx: Pick<RequestContext, 'services'>, teamId: bigint, collectionId: bigint, taskType: string, outputKey: string, templateSimplyId: string | null): Promise<TaskOutputDefault | null> {
  const keys = templateSimplyId ? [templateSimplyId, ''] : [''];
  const rows = await ctx.services.prisma.taskOutputDefault.findMany({ where: { teamId, collectionId, taskType, outputKey, templateKey: { in: keys }, isEnabled: true } });
  return rows.find((r) => r.templateKey !== '') ?? rows[0] ?? null;
}

export async function upsertOutputDefault(ctx: RequestContext, raw: unknown): Promise<OutputDefaultView> {
  const team = requireTeam(ctx);
  const input = parseInput(upsertOutputDefaultInput, raw, 'Invalid output default');
  const access = await collectionFor(ctx, input.dataCollectionSimplyId, 'EDIT');
  checkDestination(access, input.dataFieldSimplyId, input.writeMode, { field: 'dataFieldSimplyId', writeMode: 'writeMode' });
  const template = input.sourceContentTemplateSimplyId
    ? await documentTemplateFor(ctx, input.sourceContentTemplateSimplyId, access.schema, access.collection, 'sourceContentTemplateSimplyId')
    : null;
  const key = { teamId: team.id, collectionId: access.collection.id, taskType: input.enumBackgroundTaskTypeId, outputKey: input.outputKey, templateKey: template?.simplyId ?? '' };
  const values = { dataFieldSimplyId: input.dataFieldSimplyId, writeMode: input.writeMode, isEnabled: input.isEnabled ?? true, sourceContentTemplateId: template?.id ?? null };
  const row = await ctx.services.prisma.taskOutputDefault.upsert({
    where: { teamId_collectionId_taskType_outputKey_templateKey: key },
    create: { ...key, ...values, simplyId: outputDefaultId.create(), createdByUserId: ctx.principal.userId },
    update: values,
  });
  return defaultView(row, access.collection.simplyId);
}

/** Removes a default: 404 when it is not the team's or its collection is not readable, 403 without edit access. */
export async function deleteOutputDefault(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const team = requireTeam(ctx);
  outputDefaultId.assert(simplyId, 'defaultSimplyId');
  const row = await ctx.services.prisma.taskOutputDefault.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  const schema = await ctx.services.schemas.get(team.id);
  const collection = row ? schema.collectionsById.get(row.collectionId) : undefined;
  if (!row || !collection || !canReadCollection(ctx.principal, collection)) throw new NotFoundError('Output default', simplyId);
  await collectionFor(ctx, collection.simplyId, 'EDIT');
  // a concurrent delete got there first: the same answer as for a default that never existed
  const deleted = await ctx.services.prisma.taskOutputDefault.deleteMany({ where: { teamId: team.id, id: row.id } });
  if (deleted.count === 0) throw new NotFoundError('Output default', simplyId);
  return true;
}

export interface EligibleDestination {
  dataFieldSimplyId: string;
  title: unknown;
  columnName: string;
  dataType: string;
  writeModes: WriteMode[];
  /** the field the applicable default names */
  isDefault: boolean;
}

export interface EligibleDestinations {
  dataCollectionSimplyId: string;
  enumBackgroundTaskTypeId: string;
  outputKey: string;
  sourceContentTemplateSimplyId: string | null;
  destinations: EligibleDestination[];
  /** what a task without a destination of its own would use (null: none, so it must name one) */
  currentDefault: OutputDefaultView | null;
}

/** The collection's file fields the caller may edit (read access to the collection needed), with the applicable default marked. */
export async function eligibleOutputDestinations(ctx: RequestContext, raw: unknown): Promise<EligibleDestinations> {
  const team = requireTeam(ctx);
  const input = parseInput(eligibleDestinationsInput, raw, 'Invalid output destination query');
  const access = await collectionFor(ctx, input.dataCollectionSimplyId, 'READ');
  const template = input.sourceContentTemplateSimplyId
    ? await documentTemplateFor(ctx, input.sourceContentTemplateSimplyId, access.schema, access.collection, 'sourceContentTemplateSimplyId')
    : null;
  const current = await applicableDefault(ctx, team.id, access.collection.id, input.enumBackgroundTaskTypeId, input.outputKey, template?.simplyId ?? null);
  const destinations = access.fields
    .filter((f) => FILE_FIELD_TYPES.has(f.dataType) && access.editable.has(f.dataFieldSimplyId))
    .map((f) => ({
      dataFieldSimplyId: f.dataFieldSimplyId,
      title: f.title,
      columnName: f.columnName,
      dataType: f.dataType,
      writeModes: writeModesOf(f),
      isDefault: current?.dataFieldSimplyId === f.dataFieldSimplyId,
    }));
  return {
    dataCollectionSimplyId: access.collection.simplyId,
    enumBackgroundTaskTypeId: input.enumBackgroundTaskTypeId,
    outputKey: input.outputKey,
    sourceContentTemplateSimplyId: template?.simplyId ?? null,
    destinations,
    currentDefault: current ? defaultView(current, access.collection.simplyId) : null,
  };
}
