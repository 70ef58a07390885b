// An external-access link's form, the outsider's side (docs/api/data-wizards.md "The external
// form"): opening a link, what its form holds, reading a submitted form into formData, and running
// the wizard with it. The HTTP face is wizard-external-form-endpoint.ts; the markup
// wizard-external-form-page.ts.
//
// The link's secret is the only authorization. A link that is unknown, revoked, expired or used
// up, or whose wizard, record or collection can no longer be used, opens nothing, all alike (the
// endpoint answers one 404 page for every case).
//
// The form shows every step in order; an UPDATE_DATA_RECORD task shows an input per linked field,
// pre-filled with the record's current value (only fields the wizard collects: no other value of
// the record reaches the page), a VALIDATE_DATA_RECORD task names what it checks, a DISPLAY task
// shows its title and body. A submission runs the wizard through runWizard exactly as execute does
// (same validation, all-or-nothing, a DataWizardInstance, the completion event), as the link:
// actorKind PUBLIC_LINK, actorId the link's simplyId. A completed run counts a use of the link in
// the run's own transaction (`admit`), so concurrent submissions never exceed maxUses.
import type { DataWizardExternalLink } from '../../generated/prisma/client.ts';
import type { Principal, TeamRef } from '../../app/auth/principal.ts';
import { hashToken } from '../../app/auth/tokens.ts';
import type { Services } from '../../app/context.ts';
import { decodeValue, findRecordsById, type FieldDefinition, type StoredRecord } from '../../kernel/index.ts';
import { toWizardConfig, WIZARD_INCLUDE, type WizardConfig } from './wizard-config.ts';
import { collectedFieldIds, EXTERNAL_LINK_TOKEN_PREFIX, linkStatus } from './wizard-external-links.service.ts';
import { NOT_ON_EXTERNAL_FORM, readinessBlockers } from './wizard-readiness.ts';
import { runWizard, RunNotAdmittedError, type RunWizardResult } from './wizard-runner.ts';

const TOKEN_PATTERN = new RegExp(`^${EXTERNAL_LINK_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);
export const ADDRESS_PARTS = ['line1', 'line2', 'city', 'region', 'postalCode', 'countryCode'] as const;

export interface OpenLink {
  link: DataWizardExternalLink;
  team: TeamRef;
  config: WizardConfig;
  record: StoredRecord;
}

/** The link a secret opens, with its wizard and record, or null when it opens nothing. */
export async function openExternalLink(services: Services, secret: string): Promise<OpenLink | null> {
  if (!TOKEN_PATTERN.test(secret)) return null;
  // the one lookup across teams: by the digest, as an API key is found; all else is in the link's team
  const link = await services.prisma.dataWizardExternalLink.findUnique({ where: { tokenHash: hashToken(secret) } });
  if (!link || linkStatus(link) !== 'ACTIVE') return null;
  const [team, wizard, schema] = await Promise.all([
    services.prisma.team.findUnique({ where: { id: link.teamId }, select: { id: true, simplyId: true, name: true } }),
    services.prisma.dataWizard.findUnique({ where: { teamId_id: { teamId: link.teamId, id: link.wizardId } }, include: WIZARD_INCLUDE }),
    services.schemas.get(link.teamId),
  ]);
  if (!team || !wizard || readinessBlockers(wizard, schema).length > 0) return null;
  const config = toWizardConfig(schema, wizard);
  const [record] = await findRecordsById(services.pool, link.teamId, [link.recordId]);
  if (!record || record.deletedAt || record.collectionId !== config.collection?.id) return null;
  return { link, team, config, record };
}

// ------------------------------------------------------------------------------------------
// What the form holds

export type InputKind = 'text' | 'textarea' | 'number' | 'decimal' | 'date' | 'datetime' | 'email' | 'tel' | 'url' | 'boolean' | 'address' | 'record' | 'records' | 'unsupported';

const INPUT_KIND: Record<string, InputKind> = {
  PLAIN_TEXT: 'text',
  FORMATTED_TEXT: 'textarea',
  NUMBER: 'number',
  DECIMAL: 'decimal',
  MONEY: 'decimal',
  DATE: 'date',
  DATE_TIME: 'datetime',
  EMAIL_ADDRESS: 'email',
  PHONE_NUMBER: 'tel',
  BOOLEAN: 'boolean',
  URL: 'url',
  PHYSICAL_ADDRESS: 'address',
  SINGLE_DATA_RECORD: 'record',
  MULTI_DATA_RECORD: 'records',
};

export function inputKindOf(field: FieldDefinition): InputKind {
  if (NOT_ON_EXTERNAL_FORM.includes(field.dataType)) return 'unsupported';
  return INPUT_KIND[field.dataType] ?? 'unsupported';
}

/** What an input shows: the field's wire value as form text (an address: its parts). */
export type FormValue = string | Record<string, string>;

export interface FormInput {
  field: FieldDefinition;
  kind: InputKind;
  isRequired: boolean;
  /** the field is collected by an earlier task too: its one input is there */
  shownAbove: boolean;
}

export type FormTask =
  | { type: 'UPDATE_DATA_RECORD'; simplyId: string; title: unknown; inputs: FormInput[] }
  | { type: 'VALIDATE_DATA_RECORD'; simplyId: string; title: unknown; fields: FieldDefinition[] }
  | { type: 'DISPLAY'; simplyId: string; title: unknown; body: unknown };

export interface FormStep {
  simplyId: string;
  title: unknown;
  tasks: FormTask[];
}

export function formSteps(config: WizardConfig): FormStep[] {
  const seen = new Set<string>();
  return config.steps.map((step) => ({
    simplyId: step.row.simplyId,
    title: step.row.title,
    tasks: step.tasks.flatMap((task): FormTask[] => {
      const base = { simplyId: task.row.simplyId, title: task.row.title };
      if (task.type === 'UPDATE_DATA_RECORD') {
        const inputs = task.fields.map((link) => {
          const id = link.field.dataFieldSimplyId;
          const shownAbove = seen.has(id);
          seen.add(id);
          return { field: link.field, kind: inputKindOf(link.field), isRequired: link.isRequired, shownAbove };
        });
        return [{ type: 'UPDATE_DATA_RECORD', ...base, inputs }];
      }
      if (task.type === 'VALIDATE_DATA_RECORD') return [{ type: 'VALIDATE_DATA_RECORD', ...base, fields: task.fields.map((f) => f.field) }];
      if (task.type === 'DISPLAY') return [{ type: 'DISPLAY', ...base, body: (task.row.config as { body?: unknown } | null)?.body ?? null }];
      return [];
    }),
  }));
}

/** A wire value as the text of its input. */
function asFormValue(kind: InputKind, value: unknown): FormValue {
  if (value === null || value === undefined) return kind === 'address' ? {} : '';
  switch (kind) {
    case 'address': {
      const address = value as Record<string, unknown>;
      return Object.fromEntries(ADDRESS_PARTS.map((part) => [part, typeof address[part] === 'string' ? (address[part] as string) : '']));
    }
    case 'boolean':
      return value === true ? 'true' : value === false ? 'false' : '';
    case 'records':
      return Array.isArray(value) ? value.join(', ') : '';
    // an input of type datetime-local holds no offset: the form shows and takes UTC
    case 'datetime':
      return typeof value === 'string' ? value.replace(/Z$/, '').replace(/:00\.000$/, '').replace(/\.000$/, '') : '';
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** The inputs' values: the record's current values of the fields the wizard collects, nothing else. */
export function currentValues(open: OpenLink): Record<string, FormValue> {
  const collected = new Set(collectedFieldIds(open.config));
  const out: Record<string, FormValue> = {};
  for (const step of formSteps(open.config)) {
    for (const task of step.tasks) {
      if (task.type !== 'UPDATE_DATA_RECORD') continue;
      for (const input of task.inputs) {
        const id = input.field.dataFieldSimplyId;
        if (!collected.has(id) || input.kind === 'unsupported' || id in out) continue;
        out[id] = asFormValue(input.kind, decodeValue(input.field, open.record.values[id]));
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// Reading a submitted form

/** The name of a field's input (an address part: `f.<id>.<part>`). */
export const inputName = (fieldSimplyId: string, part?: string) => (part ? `f.${fieldSimplyId}.${part}` : `f.${fieldSimplyId}`);

export interface SubmittedForm {
  /** what runWizard gets, keyed by field simplyId */
  formData: Record<string, unknown>;
  /** what the inputs held, to show again when the run failed */
  shown: Record<string, FormValue>;
}

const DATE_TIME_WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;

/**
 * formData from a submitted form: every collectable field whose input was sent (a field the form
 * cannot collect, or an input left out of the request, is not supplied). A blank input clears the
 * field, as an empty value does in every write (docs/api/data-types.md).
 */
export function readSubmittedForm(open: OpenLink, form: URLSearchParams): SubmittedForm {
  const formData: Record<string, unknown> = {};
  const shown: Record<string, FormValue> = {};
  for (const step of formSteps(open.config)) {
    for (const task of step.tasks) {
      if (task.type !== 'UPDATE_DATA_RECORD') continue;
      for (const { field, kind, shownAbove } of task.inputs) {
        const id = field.dataFieldSimplyId;
        if (shownAbove || kind === 'unsupported') continue;
        if (kind === 'address') {
          const parts = Object.fromEntries(ADDRESS_PARTS.flatMap((part) => {
            const v = form.get(inputName(id, part));
            return v === null ? [] : [[part, v]];
          }));
          if (Object.keys(parts).length === 0) continue;
          shown[id] = parts;
          const given = Object.fromEntries(Object.entries(parts).filter(([, v]) => v.trim() !== ''));
          formData[id] = Object.keys(given).length === 0 ? null : given;
          continue;
        }
        const text = form.get(inputName(id));
        if (text === null) continue;
        shown[id] = text;
        formData[id] = fromText(kind, text);
      }
    }
  }
  return { formData, shown };
}

function fromText(kind: InputKind, text: string): unknown {
  if (text.trim() === '') return null;
  switch (kind) {
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'records':
      return text.split(/[\s,]+/).filter(Boolean);
    case 'datetime':
      return DATE_TIME_WITHOUT_OFFSET.test(text.trim()) ? `${text.trim()}Z` : text;
    default:
      return text;
  }
}

// ------------------------------------------------------------------------------------------
// Running the wizard as the link

/** Who runs it: the link, with RUN on the wizard's collection and nothing else. */
function linkPrincipal(open: OpenLink): Principal {
  return {
    kind: 'PUBLIC_LINK',
    credentialId: open.link.simplyId,
    userId: null,
    userSimplyId: null,
    apiKeyId: null,
    isSystemAdmin: false,
    isTeamAdmin: false,
    team: open.team,
    teamError: null,
    features: new Map(),
    scopes: null,
    data: { full: null, collections: new Map([[open.config.collection!.simplyId, new Set(['READ', 'RUN'] as const)]]), fields: new Map() },
    teamRoleSimplyId: null,
    expiresAt: null,
  };
}

/** The link stopped working while the form was filled in (revoked, expired, used up): nothing ran. */
export class LinkNoLongerUsableError extends Error {}

/**
 * Runs the wizard with the submitted values. `nonce` is the rendering's (wizard-form-token.ts): the
 * same form submitted again answers the first run. A run that fails answers success false and
 * counts no use.
 */
export async function submitExternalForm(services: Services, open: OpenLink, formData: Record<string, unknown>, nonce: string, requestId: string): Promise<RunWizardResult> {
  try {
    return await runWizard(services, {
      teamId: open.link.teamId,
      dataWizardSimplyId: open.config.row.simplyId,
      dataRecordSimplyId: open.record.simplyId,
      formData,
      principal: linkPrincipal(open),
      source: 'REST',
      requestId,
      effectKey: `wizard-link:${open.link.simplyId}:form:${nonce}`,
      admit: async (db) => {
        const { rowCount } = await db.query(
          `UPDATE "DataWizardExternalLink" SET "useCount" = "useCount" + 1, "lastUsedAt" = now()
            WHERE "teamId" = $1 AND id = $2 AND "revokedAt" IS NULL AND "expiresAt" > now() AND ("maxUses" IS NULL OR "useCount" < "maxUses")`,
          [open.link.teamId, open.link.id],
        );
        if (rowCount !== 1) throw new RunNotAdmittedError('the external-access link no longer works');
      },
    });
  } catch (error) {
    if (error instanceof RunNotAdmittedError) throw new LinkNoLongerUsableError(error.message);
    throw error;
  }
}
