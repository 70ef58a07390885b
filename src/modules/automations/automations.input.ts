// Automation and action bodies (docs/api/automations.md), validated strictly against the team
// schema: the collection, watched fields, filter conditions (the record search rules), cron
// expressions and every action config (field values through the same value layer as record
// writes). Every problem is reported, each naming its path (`triggerConfig.cron`,
// `actions[1].actionConfig.fields.fld-…`). Configs are stored as given, so the stored form is the
// portable one (references by simplyId) and is re-validated by the data core when it runs.
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import { hasFeature, type Principal } from '../../app/auth/principal.ts';
import {
  type CollectionDefinition,
  currencyDigits,
  encodeRecordFields,
  type FieldDefinition,
  normalizeFilters,
  type TeamSchema,
  toValidationError,
} from '../../kernel/index.ts';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { type ErrorDetail, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { simplyIdPattern, userId } from '../../app/ids.ts';
import { dataWizardId, dataWizardStepId } from '../wizards/index.ts';
import { unknownTags } from '../merge-tags/index.ts';
import { type Tx } from '../../app/transaction.ts';

export const TRIGGER_TYPES = ['SCHEDULE', 'RECORD_CREATED', 'RECORD_UPDATED', 'FIELD_VALUE_CHANGED', 'WIZARD_COMPLETED', 'WIZARD_COMPLETION_FAILED'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
export const ACTION_TYPES = ['SEND_EMAIL', 'UPDATE_FIELDS', 'CREATE_RECORD', 'RUN_WIZARD_STEP', 'CHARGE_PAYMENT', 'SEND_USER_NOTIFICATION'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const RECORD_TRIGGERS: readonly TriggerType[] = ['RECORD_CREATED', 'RECORD_UPDATED', 'FIELD_VALUE_CHANGED'];
export const WIZARD_TRIGGERS: readonly TriggerType[] = ['WIZARD_COMPLETED', 'WIZARD_COMPLETION_FAILED'];

export const LIMITS = {
  name: 200,
  description: 2000,
  maxRecordsPerExecution: 1000,
  defaultMaxRecordsPerExecution: 100,
  actions: 50,
  onFailureActions: 5,
  watchedFields: 25,
  maxAttempts: 5,
  delaySeconds: 60,
  recipients: 50,
  subject: 200,
  text: 50_000,
  html: 100_000,
  title: 200,
  body: 5000,
  paymentDescription: 500,
  maxAmount: 1_000_000,
  configFields: 200,
} as const;

const OUTGOING_EMAIL_PERMISSION = 'OUTGOING_MESSAGES_SEND';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((v) => (v === '' ? null : v));

export const automationCreateInput = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(LIMITS.name),
    description: optionalText(LIMITS.description).default(null),
    triggerType: z.enum(TRIGGER_TYPES, { message: `must be one of ${TRIGGER_TYPES.join(', ')}` }),
    dataCollectionSimplyId: z.string().regex(simplyIdPattern(), 'must be a collection simplyId (XXXX-XXXX-XXXX)').nullable().default(null),
    triggerConfig: z.unknown().optional(),
    filterConditions: z.unknown().optional(),
    isEnabled: z.boolean().default(true),
    maxRecordsPerExecution: z.number().int().min(1).max(LIMITS.maxRecordsPerExecution).default(LIMITS.defaultMaxRecordsPerExecution),
    actions: z.array(z.unknown()).max(LIMITS.actions).default([]),
  })
  .strict();

export const automationUpdateInput = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(LIMITS.name),
    description: optionalText(LIMITS.description),
    triggerType: z.enum(TRIGGER_TYPES, { message: `must be one of ${TRIGGER_TYPES.join(', ')}` }),
    dataCollectionSimplyId: z.string().regex(simplyIdPattern(), 'must be a collection simplyId (XXXX-XXXX-XXXX)').nullable(),
    triggerConfig: z.unknown(),
    filterConditions: z.unknown(),
    isEnabled: z.boolean(),
    maxRecordsPerExecution: z.number().int().min(1).max(LIMITS.maxRecordsPerExecution),
  })
  .partial()
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'give at least one field to change');

const retryConfig = z
  .object({
    maxAttempts: z.number().int().min(1).max(LIMITS.maxAttempts).default(1),
    delaySeconds: z.number().int().min(0).max(LIMITS.delaySeconds).default(0),
  })
  .strict();
export type RetryConfig = z.output<typeof retryConfig>;

const followUp = z.object({ actionType: z.enum(ACTION_TYPES, { message: `must be one of ${ACTION_TYPES.join(', ')}` }), actionConfig: z.unknown() }).strict();

export const actionCreateInput = z
  .object({
    actionType: z.enum(ACTION_TYPES, { message: `must be one of ${ACTION_TYPES.join(', ')}` }),
    actionConfig: z.unknown(),
    executionRank: z.number().int().min(1).max(LIMITS.actions).optional(),
    continueOnError: z.boolean().default(false),
    retryConfig: retryConfig.nullable().default(null),
    onFailureActions: z.array(followUp).max(LIMITS.onFailureActions).nullable().default(null),
  })
  .strict();
export type ActionCreateInput = z.output<typeof actionCreateInput>;

export const actionUpdateInput = z
  .object({
    actionType: z.enum(ACTION_TYPES, { message: `must be one of ${ACTION_TYPES.join(', ')}` }),
    actionConfig: z.unknown(),
    executionRank: z.number().int().min(1).max(LIMITS.actions),
    continueOnError: z.boolean(),
    retryConfig: retryConfig.nullable(),
    onFailureActions: z.array(followUp).max(LIMITS.onFailureActions).nullable(),
  })
  .partial()
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'give at least one field to change');

/** zod issues → details under a path prefix (`actions[2].`), so nested bodies name their place. */
export function zodDetails<S extends z.ZodType>(schema: S, value: unknown, prefix: string): { ok: true; value: z.output<S> } | { ok: false; details: ErrorDetail[] } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const join = (path: PropertyKey[]) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
  return {
    ok: false,
    details: result.error.issues.map((issue) => ({ field: `${prefix}${join(issue.path)}`.replace(/\.$/, '') || undefined, message: issue.message })),
  };
}

// ---------------------------------------------------------------------------------------------
// What validation needs to know about the team and the caller.

export interface ValidationEnv {
  schema: TeamSchema;
  teamId: bigint;
  db: PrismaClient | Tx;
  principal: Principal;
  /** the automation's collection (records its actions work on), or null */
  collection: CollectionDefinition | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fieldsOf(env: ValidationEnv): FieldDefinition[] | null {
  return env.collection ? env.schema.fieldsOf(env.collection) : null;
}

// ---------------------------------------------------------------------------------------------
// Trigger config and filter conditions

export const MIN_SCHEDULE_INTERVAL = 'one minute';

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Five-field cron (minute hour day-of-month month day-of-week): one minute is the shortest interval. */
export function cronProblem(cron: string, timezone: string): string | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return 'must be a five-field cron expression (minute hour day-of-month month day-of-week); seconds are not supported';
  try {
    CronExpressionParser.parse(cron, { tz: timezone, strict: false }).next();
    return null;
  } catch (error) {
    return `is not a valid cron expression: ${(error as Error).message}`;
  }
}

export interface TriggerValidation {
  triggerConfig: Record<string, unknown>;
  /** wizard triggers: the wizard's collection, when the automation names none */
  impliedCollectionId: bigint | null;
}

export async function validateTrigger(env: ValidationEnv, triggerType: TriggerType, raw: unknown, details: ErrorDetail[]): Promise<TriggerValidation> {
  const config = raw === undefined || raw === null ? {} : raw;
  const out: TriggerValidation = { triggerConfig: {}, impliedCollectionId: null };
  if (!isObject(config)) {
    details.push({ field: 'triggerConfig', message: 'must be an object' });
    return out;
  }
  const allowed: Record<TriggerType, string[]> = {
    SCHEDULE: ['cron', 'timezone'],
    RECORD_CREATED: [],
    RECORD_UPDATED: [],
    FIELD_VALUE_CHANGED: ['dataFieldSimplyIds'],
    WIZARD_COMPLETED: ['dataWizardSimplyId'],
    WIZARD_COMPLETION_FAILED: ['dataWizardSimplyId'],
  };
  for (const key of Object.keys(config)) {
    if (!allowed[triggerType].includes(key)) {
      details.push({ field: `triggerConfig.${key}`, message: allowed[triggerType].length ? `unknown key for ${triggerType}; allowed: ${allowed[triggerType].join(', ')}` : `${triggerType} takes no trigger settings` });
    }
  }
  if (RECORD_TRIGGERS.includes(triggerType) && !env.collection) {
    details.push({ field: 'dataCollectionSimplyId', message: `is required for ${triggerType}` });
  }
  switch (triggerType) {
    case 'SCHEDULE': {
      const timezone = config.timezone ?? 'UTC';
      if (typeof timezone !== 'string' || !validTimeZone(timezone)) details.push({ field: 'triggerConfig.timezone', message: 'must be an IANA time zone such as "UTC" or "Europe/Berlin"' });
      if (typeof config.cron !== 'string' || config.cron.trim() === '') {
        details.push({ field: 'triggerConfig.cron', message: 'is required for SCHEDULE: a five-field cron expression such as "0 6 * * 1-5"' });
      } else if (typeof timezone === 'string' && validTimeZone(timezone)) {
        const problem = cronProblem(config.cron, timezone);
        if (problem) details.push({ field: 'triggerConfig.cron', message: problem });
      }
      out.triggerConfig = { cron: typeof config.cron === 'string' ? config.cron.trim().replace(/\s+/g, ' ') : config.cron, timezone };
      break;
    }
    case 'FIELD_VALUE_CHANGED': {
      const ids = config.dataFieldSimplyIds;
      const fields = fieldsOf(env);
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > LIMITS.watchedFields) {
        details.push({ field: 'triggerConfig.dataFieldSimplyIds', message: `must list 1 to ${LIMITS.watchedFields} field simplyIds of the collection to watch` });
        break;
      }
      const known = new Set((fields ?? []).map((f) => f.dataFieldSimplyId));
      ids.forEach((id: unknown, i) => {
        if (typeof id !== 'string' || !known.has(id)) details.push({ field: `triggerConfig.dataFieldSimplyIds[${i}]`, message: `${typeof id === 'string' ? id : 'the value'} is not a field of the automation's collection` });
      });
      out.triggerConfig = { dataFieldSimplyIds: [...new Set(ids as string[])] };
      break;
    }
    case 'WIZARD_COMPLETED':
    case 'WIZARD_COMPLETION_FAILED': {
      const id = config.dataWizardSimplyId;
      if (typeof id !== 'string' || !dataWizardId.is(id)) {
        details.push({ field: 'triggerConfig.dataWizardSimplyId', message: `is required for ${triggerType}: a data wizard simplyId (wiz-XXXX-XXXX-XXXX)` });
        break;
      }
      const wizard = await env.db.dataWizard.findUnique({ where: { teamId_simplyId: { teamId: env.teamId, simplyId: id } }, select: { collectionId: true } });
      if (!wizard) {
        details.push({ field: 'triggerConfig.dataWizardSimplyId', message: `data wizard ${id} was not found in this team` });
        break;
      }
      if (wizard.collectionId !== null && env.collection && env.schema.fieldSource(env.collection).id !== wizard.collectionId && env.collection.id !== wizard.collectionId) {
        details.push({ field: 'dataCollectionSimplyId', message: `must be the collection of wizard ${id} (or be left out)` });
      }
      out.impliedCollectionId = wizard.collectionId;
      out.triggerConfig = { dataWizardSimplyId: id };
      break;
    }
    default:
      out.triggerConfig = {};
  }
  return out;
}

/** Stored as given ({ field, operator, value }), like a view's filters; checked with the record search rules. */
export function validateFilterConditions(env: ValidationEnv, raw: unknown, details: ErrorDetail[]): { field: string; operator: string; value: unknown }[] | null {
  if (raw === undefined || raw === null) return null;
  if (Array.isArray(raw) && raw.length === 0) return null;
  const fields = fieldsOf(env);
  if (!fields) {
    details.push({ field: 'filterConditions', message: 'need a dataCollectionSimplyId: conditions are checked against its records' });
    return null;
  }
  const normalized = normalizeFilters(fields, raw);
  if (!normalized.ok) {
    details.push(...normalized.details.map((d) => ({ ...d, field: `filterConditions${(d.field ?? 'filters').replace(/^filters/, '')}` })));
    return null;
  }
  return (raw as Record<string, unknown>[]).map((f) => ({ field: f.field as string, operator: f.operator as string, value: f.value ?? null }));
}

// ---------------------------------------------------------------------------------------------
// Action configs

type ConfigCheck = (env: ValidationEnv, config: Record<string, unknown>, at: string, details: ErrorDetail[]) => Promise<void> | void;

function keysOnly(config: Record<string, unknown>, allowed: readonly string[], at: string, details: ErrorDetail[]): void {
  for (const key of Object.keys(config)) if (!allowed.includes(key)) details.push({ field: `${at}.${key}`, message: `unknown key; allowed: ${allowed.join(', ')}` });
}

function text(config: Record<string, unknown>, key: string, max: number, at: string, details: ErrorDetail[], required: boolean): string | null {
  const value = config[key];
  if (value === undefined || value === null) {
    if (required) details.push({ field: `${at}.${key}`, message: 'is required' });
    return null;
  }
  if (typeof value !== 'string' || (required && value.trim() === '') || [...value].length > max) {
    details.push({ field: `${at}.${key}`, message: `must be a ${required ? 'non-empty ' : ''}string of at most ${max} characters` });
    return null;
  }
  return value;
}

function tags(env: ValidationEnv, value: string | null, path: string, details: ErrorDetail[]): void {
  if (value === null) return;
  const unknown = unknownTags(value, fieldsOf(env));
  if (unknown.length === 0) return;
  details.push({
    field: path,
    message: env.collection
      ? `unknown merge tag${unknown.length > 1 ? 's' : ''} ${unknown.map((t) => `{{${t}}}`).join(', ')}: use a field simplyId or columnName of the collection, record.id or record.name`
      : `merge tags need a dataCollectionSimplyId on the automation (found ${unknown.map((t) => `{{${t}}}`).join(', ')})`,
  });
}

/** A field of the automation's collection with one of `types`, or a detail saying why not. */
function fieldRef(env: ValidationEnv, value: unknown, types: readonly string[], path: string, details: ErrorDetail[]): FieldDefinition | null {
  const fields = fieldsOf(env);
  if (!fields) {
    details.push({ field: path, message: 'needs a dataCollectionSimplyId on the automation' });
    return null;
  }
  const field = typeof value === 'string' ? fields.find((f) => f.dataFieldSimplyId === value) : undefined;
  if (!field) {
    details.push({ field: path, message: `must be a field simplyId of the automation's collection` });
    return null;
  }
  if (!types.includes(field.dataType)) {
    details.push({ field: path, message: `${field.dataFieldSimplyId} is a ${field.dataType} field; use a ${types.join(' or ')} field` });
    return null;
  }
  return field;
}

function recordFields(fields: readonly FieldDefinition[], raw: unknown, mode: 'create' | 'update', path: string, details: ErrorDetail[]): void {
  if (!isObject(raw) || (mode === 'update' && Object.keys(raw).length === 0) || Object.keys(raw).length > LIMITS.configFields) {
    details.push({ field: path, message: `must be an object of ${mode === 'update' ? '1' : '0'} to ${LIMITS.configFields} values keyed by field simplyId` });
    return;
  }
  const result = encodeRecordFields(fields, raw, { mode });
  for (const key of result.unknownKeys) details.push({ field: `${path}.${key}`, message: 'is not a field of the collection' });
  const error = toValidationError(result, { path });
  if (error?.details) details.push(...error.details);
}

const EMAIL = z.email();

const ACTION_CHECKS: Record<ActionType, ConfigCheck> = {
  UPDATE_FIELDS: (env, config, at, details) => {
    keysOnly(config, ['fields'], at, details);
    const fields = fieldsOf(env);
    if (!fields) return void details.push({ field: at, message: 'UPDATE_FIELDS needs a dataCollectionSimplyId on the automation (it updates the record the automation runs on)' });
    recordFields(fields, config.fields, 'update', `${at}.fields`, details);
  },
  CREATE_RECORD: (env, config, at, details) => {
    keysOnly(config, ['dataCollectionSimplyId', 'fields'], at, details);
    const id = config.dataCollectionSimplyId;
    const target = typeof id === 'string' ? env.schema.collectionsBySimplyId.get(id) : undefined;
    if (!target) return void details.push({ field: `${at}.dataCollectionSimplyId`, message: 'must be a collection simplyId of this team' });
    if (target.type === 'SMART') return void details.push({ field: `${at}.dataCollectionSimplyId`, message: 'is a SMART collection: records are created in its source collection' });
    if (target.isArchived) return void details.push({ field: `${at}.dataCollectionSimplyId`, message: 'is archived' });
    recordFields(env.schema.fieldsOf(target), config.fields ?? {}, 'create', `${at}.fields`, details);
  },
  SEND_EMAIL: (env, config, at, details) => {
    keysOnly(config, ['to', 'toFieldSimplyId', 'subject', 'text', 'html'], at, details);
    const to = config.to;
    if (to !== undefined && to !== null) {
      if (!Array.isArray(to) || to.length > LIMITS.recipients) details.push({ field: `${at}.to`, message: `must be an array of at most ${LIMITS.recipients} email addresses` });
      else to.forEach((address: unknown, i) => {
        if (typeof address !== 'string' || !EMAIL.safeParse(address).success) details.push({ field: `${at}.to[${i}]`, message: 'must be an email address' });
      });
    }
    if (config.toFieldSimplyId !== undefined && config.toFieldSimplyId !== null) fieldRef(env, config.toFieldSimplyId, ['EMAIL_ADDRESS'], `${at}.toFieldSimplyId`, details);
    const fixed = Array.isArray(to) && to.length > 0;
    if (!fixed && (config.toFieldSimplyId === undefined || config.toFieldSimplyId === null)) {
      details.push({ field: `${at}.to`, message: 'give recipients: to (fixed addresses) and/or toFieldSimplyId (an EMAIL_ADDRESS field of the record)' });
    }
    tags(env, text(config, 'subject', LIMITS.subject, at, details, true), `${at}.subject`, details);
    tags(env, text(config, 'text', LIMITS.text, at, details, true), `${at}.text`, details);
    tags(env, text(config, 'html', LIMITS.html, at, details, false), `${at}.html`, details);
  },
  RUN_WIZARD_STEP: async (env, config, at, details) => {
    keysOnly(config, ['dataWizardSimplyId', 'dataWizardStepSimplyId', 'formData'], at, details);
    if (!env.collection) return void details.push({ field: at, message: 'RUN_WIZARD_STEP needs a dataCollectionSimplyId on the automation (the wizard runs on its record)' });
    const id = config.dataWizardSimplyId;
    if (typeof id !== 'string' || !dataWizardId.is(id)) return void details.push({ field: `${at}.dataWizardSimplyId`, message: 'must be a data wizard simplyId (wiz-XXXX-XXXX-XXXX)' });
    const wizard = await env.db.dataWizard.findUnique({ where: { teamId_simplyId: { teamId: env.teamId, simplyId: id } }, select: { id: true, collectionId: true } });
    if (!wizard) return void details.push({ field: `${at}.dataWizardSimplyId`, message: `data wizard ${id} was not found in this team` });
    const source = env.schema.fieldSource(env.collection);
    if (wizard.collectionId !== null && wizard.collectionId !== source.id && wizard.collectionId !== env.collection.id) {
      details.push({ field: `${at}.dataWizardSimplyId`, message: `wizard ${id} works on another collection than the automation's` });
    }
    const step = config.dataWizardStepSimplyId;
    if (step !== undefined && step !== null) {
      const found = typeof step === 'string' && dataWizardStepId.is(step) ? await env.db.dataWizardStep.findUnique({ where: { teamId_simplyId: { teamId: env.teamId, simplyId: step } }, select: { wizardId: true } }) : null;
      if (!found || found.wizardId !== wizard.id) details.push({ field: `${at}.dataWizardStepSimplyId`, message: `must be a step of wizard ${id}` });
    }
    if (config.formData !== undefined && config.formData !== null) {
      const wizardCollection = wizard.collectionId === null ? env.collection : (env.schema.collectionsById.get(wizard.collectionId) ?? env.collection);
      recordFields(env.schema.fieldsOf(wizardCollection), config.formData, 'update', `${at}.formData`, details);
    }
  },
  SEND_USER_NOTIFICATION: async (env, config, at, details) => {
    keysOnly(config, ['userSimplyId', 'toUserFieldSimplyId', 'title', 'body'], at, details);
    const user = config.userSimplyId;
    const field = config.toUserFieldSimplyId;
    if ((user === undefined || user === null) === (field === undefined || field === null)) {
      details.push({ field: `${at}.userSimplyId`, message: 'give exactly one of userSimplyId and toUserFieldSimplyId' });
    } else if (user !== undefined && user !== null) {
      const member =
        typeof user === 'string' && userId.is(user)
          ? await env.db.teamMembership.findFirst({ where: { teamId: env.teamId, isActive: true, user: { simplyId: user } }, select: { id: true } })
          : null;
      if (!member) details.push({ field: `${at}.userSimplyId`, message: 'must be the simplyId of an active member of this team' });
    } else {
      fieldRef(env, field, ['PLAIN_TEXT', 'EMAIL_ADDRESS'], `${at}.toUserFieldSimplyId`, details);
    }
    tags(env, text(config, 'title', LIMITS.title, at, details, true), `${at}.title`, details);
    tags(env, text(config, 'body', LIMITS.body, at, details, false), `${at}.body`, details);
  },
  CHARGE_PAYMENT: (env, config, at, details) => {
    keysOnly(config, ['amount', 'amountFieldSimplyId', 'currency', 'description'], at, details);
    const hasAmount = config.amount !== undefined && config.amount !== null;
    const hasField = config.amountFieldSimplyId !== undefined && config.amountFieldSimplyId !== null;
    let currency = typeof config.currency === 'string' ? config.currency : null;
    if (hasAmount === hasField) details.push({ field: `${at}.amount`, message: 'give exactly one of amount and amountFieldSimplyId' });
    if (hasField) {
      const field = fieldRef(env, config.amountFieldSimplyId, ['NUMBER', 'DECIMAL', 'MONEY'], `${at}.amountFieldSimplyId`, details);
      if (field?.dataType === 'MONEY' && !currency && typeof field.config.currency === 'string') currency = field.config.currency;
    }
    if (config.currency !== undefined && config.currency !== null && (typeof config.currency !== 'string' || !isCurrency(config.currency))) {
      details.push({ field: `${at}.currency`, message: 'must be an ISO 4217 currency code such as "EUR"' });
    } else if (!currency) {
      details.push({ field: `${at}.currency`, message: 'is required (unless amountFieldSimplyId is a MONEY field with a currency)' });
    }
    if (hasAmount) {
      const problem = amountProblem(config.amount, currency && isCurrency(currency) ? currency : null);
      if (problem) details.push({ field: `${at}.amount`, message: problem });
    }
    tags(env, text(config, 'description', LIMITS.paymentDescription, at, details, false), `${at}.description`, details);
  },
};

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);
}

/** A positive decimal within the limit, with no more decimals than the currency has minor units. */
export function amountProblem(raw: unknown, currency: string | null): string | null {
  const textual = typeof raw === 'number' ? String(raw) : raw;
  if (typeof textual !== 'string' || !/^\d+(\.\d+)?$/.test(textual)) return 'must be a positive decimal number such as 12.50';
  const value = Number(textual);
  if (!(value > 0) || value > LIMITS.maxAmount) return `must be greater than 0 and at most ${LIMITS.maxAmount}`;
  const decimals = textual.split('.')[1]?.length ?? 0;
  if (currency && decimals > currencyDigits(currency)) return `${currency} takes at most ${currencyDigits(currency)} decimals`;
  return null;
}

/** Whether the config sends mail to a fixed recipient list (needs OUTGOING_MESSAGES_SEND, §4.6). */
function sendsToFixedRecipients(actionType: string, config: unknown): boolean {
  return actionType === 'SEND_EMAIL' && isObject(config) && Array.isArray(config.to) && config.to.length > 0;
}

export function requireEmailPermission(env: ValidationEnv, actions: readonly { actionType: string; actionConfig: unknown; onFailureActions?: readonly { actionType: string; actionConfig: unknown }[] | null }[]): void {
  const fixed = actions.some((a) => sendsToFixedRecipients(a.actionType, a.actionConfig) || (a.onFailureActions ?? []).some((f) => sendsToFixedRecipients(f.actionType, f.actionConfig)));
  if (fixed && !hasFeature(env.principal, OUTGOING_EMAIL_PERMISSION, 'EDIT')) {
    throw new PermissionDeniedError(`SEND_EMAIL actions with a fixed recipient list (to) need the ${OUTGOING_EMAIL_PERMISSION} feature permission`);
  }
}

/** Checks one action config (an action's or a follow-up's); problems go to `details` under `at`. */
export async function validateActionConfig(env: ValidationEnv, actionType: ActionType, raw: unknown, at: string, details: ErrorDetail[]): Promise<Record<string, unknown>> {
  if (!isObject(raw)) {
    details.push({ field: at, message: `must be an object (the ${actionType} settings)` });
    return {};
  }
  await ACTION_CHECKS[actionType](env, raw, at, details);
  return raw;
}

export interface ValidatedAction {
  actionType: ActionType;
  actionConfig: Record<string, unknown>;
  executionRank?: number;
  continueOnError: boolean;
  retryConfig: RetryConfig | null;
  onFailureActions: { actionType: ActionType; actionConfig: Record<string, unknown> }[] | null;
}

/** A whole action body (create shape) at `prefix` (`` for a single action, `actions[2].` in an automation). */
export async function validateAction(env: ValidationEnv, raw: unknown, prefix: string, details: ErrorDetail[]): Promise<ValidatedAction | null> {
  const parsed = zodDetails(actionCreateInput, raw, prefix);
  if (!parsed.ok) {
    details.push(...parsed.details);
    return null;
  }
  return validateParsedAction(env, parsed.value, prefix, details);
}

export async function validateParsedAction(env: ValidationEnv, action: ActionCreateInput, prefix: string, details: ErrorDetail[]): Promise<ValidatedAction> {
  const actionConfig = await validateActionConfig(env, action.actionType, action.actionConfig, `${prefix}actionConfig`, details);
  const onFailureActions = action.onFailureActions
    ? await Promise.all(
        action.onFailureActions.map(async (f, i) => ({
          actionType: f.actionType,
          actionConfig: await validateActionConfig(env, f.actionType, f.actionConfig, `${prefix}onFailureActions[${i}].actionConfig`, details),
        })),
      )
    : null;
  return {
    actionType: action.actionType,
    actionConfig,
    executionRank: action.executionRank,
    continueOnError: action.continueOnError,
    retryConfig: action.retryConfig,
    onFailureActions: onFailureActions && onFailureActions.length > 0 ? onFailureActions : null,
  };
}

export function throwIfAny(details: ErrorDetail[], message: string): void {
  if (details.length > 0) throw new ValidationError(message, details);
}
