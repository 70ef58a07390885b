// Field descriptions (privileged; docs/api/data-collections.md "Field descriptions"): the AI
// layer drafts a description per field from the field's definition only (title, column name, data
// type, settings; never a record's values), nothing is stored, and the caller then applies the
// descriptions it approves, edited or not. Without a model configured, generation is refused.
import type { RequestContext } from '../../app/context.ts';
import { AiError, AiFeatureUnavailableError, AiModelFailedError } from '../../app/ai/index.ts';
import { type ErrorDetail, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { parseInput } from '../../app/validate.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { type CollectionDefinition, findCollection, throwIfDetails } from '../../kernel/index.ts';
import { applyDescriptionsInput, generateDescriptionsInput, MAX_DESCRIBED_FIELDS, MAX_DESCRIPTION_LENGTH } from './collection-admin.input.ts';
import { type AdminDetail, adminDetailOf, underSchemaLock } from './collection-admin.service.ts';
import { adminCollection, freshAccess } from './collections.service.ts';
import { textLabel } from './fields.service.ts';

const SMART_DESCRIPTIONS = "a SMART collection shows its source collection's fields: describe them there";

function ownFieldsOnly(collection: CollectionDefinition): void {
  if (collection.type === 'SMART') {
    throw new ValidationError(`Collection ${collection.simplyId} is SMART`, [{ field: 'dataCollectionSimplyId', message: SMART_DESCRIPTIONS }]);
  }
}

export interface DescriptionSuggestion {
  dataFieldSimplyId: string;
  columnName: string;
  title: unknown;
  dataType: string;
  currentDescription: unknown;
  suggestedDescription: string | null;
}

export interface DescriptionSuggestions {
  dataCollectionSimplyId: string;
  language: string;
  suggestions: DescriptionSuggestion[];
}

const SYSTEM = [
  'You write short descriptions of the fields of a data collection, for the people who fill them in.',
  'Each description says what the field holds, in one or two plain sentences, at most 300 characters, without repeating the field title verbatim and without inventing rules the definition does not state.',
  'Answer with JSON only, exactly this shape: {"descriptions":[{"dataFieldSimplyId":"fld-…","description":"…"}]}, one entry per field you were given.',
].join(' ');

/** The model's JSON answer, read leniently (a fenced block, text around it); entries for other fields are dropped. */
function readSuggestions(text: string, wanted: ReadonlySet<string>): Map<string, string> | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  const list = (parsed as { descriptions?: unknown })?.descriptions;
  if (!Array.isArray(list)) return null;
  const out = new Map<string, string>();
  for (const entry of list) {
    const id = (entry as { dataFieldSimplyId?: unknown })?.dataFieldSimplyId;
    const description = (entry as { description?: unknown })?.description;
    if (typeof id !== 'string' || !wanted.has(id) || typeof description !== 'string') continue;
    const clean = description.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_DESCRIPTION_LENGTH);
    if (clean && !out.has(id)) out.set(id, clean);
  }
  return out;
}

/** The current description in `language` (a plain string counts for any language). */
function descriptionIn(description: unknown, language: string): string | null {
  if (typeof description === 'string') return description;
  if (description && typeof description === 'object') return (description as Record<string, string>)[language] ?? null;
  return null;
}

/** POST …/generate-field-descriptions: drafts, nothing stored. */
export async function generateFieldDescriptions(ctx: RequestContext, simplyId: string, raw: unknown): Promise<DescriptionSuggestions> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const input = parseInput(generateDescriptionsInput, raw ?? {}, 'Invalid description request');
  const collection = await adminCollection(ctx, simplyId);
  ownFieldsOnly(collection);
  const detail = await adminDetailOf(ctx, await freshAccess(ctx, team.id, collection.id));
  const byId = new Map(detail.fields.map((f) => [f.field.dataFieldSimplyId, f]));
  const details: ErrorDetail[] = [];
  input.dataFieldSimplyIds?.forEach((id, i) => {
    if (!byId.has(id)) details.push({ field: `dataFieldSimplyIds.${i}`, message: 'is not a field of this collection' });
  });
  throwIfDetails('Invalid description request', details);
  let chosen = input.dataFieldSimplyIds ? input.dataFieldSimplyIds.map((id) => byId.get(id)!) : detail.fields;
  if (input.onlyMissing) chosen = chosen.filter((f) => descriptionIn(f.description, input.language) === null);
  if (!input.dataFieldSimplyIds && chosen.length > MAX_DESCRIBED_FIELDS) {
    throw new ValidationError(`The collection has more than ${MAX_DESCRIBED_FIELDS} fields to describe: list the ones to describe`, [
      { field: 'dataFieldSimplyIds', message: `is required when more than ${MAX_DESCRIBED_FIELDS} fields would be described` },
    ]);
  }
  const ai = ctx.services.ai;
  if (!ai) throw new AiFeatureUnavailableError('Generating field descriptions');
  let found = new Map<string, string>();
  if (chosen.length > 0) {
    const definition = {
      collection: { name: textLabel(collection.name), archetype: detail.access.schema.effectiveArchetype(collection) },
      language: input.language,
      fields: chosen.map((f) => ({ dataFieldSimplyId: f.field.dataFieldSimplyId, title: f.field.title, columnName: f.field.columnName, dataType: f.field.dataType, isRequired: f.field.isRequired, config: f.field.config })),
    };
    let text: string;
    try {
      const step = await ai.complete({
        system: SYSTEM,
        messages: [{ role: 'user', content: `Write the descriptions in the language "${input.language}" for these fields:\n${JSON.stringify(definition)}` }],
        maxOutputTokens: 200 * chosen.length + 200,
        budget: ai.runBudget(),
        teamId: team.id,
        feature: 'field-descriptions',
      });
      text = step.text;
    } catch (error) {
      if (error instanceof AiError) {
        ctx.logger.warn({ ai: error.logFields() }, 'field descriptions: model step failed');
        throw new AiModelFailedError(error);
      }
      throw error;
    }
    const read = readSuggestions(text, new Set(chosen.map((f) => f.field.dataFieldSimplyId)));
    if (!read) throw new AiModelFailedError(new AiError('bad_response'));
    found = read;
  }
  return {
    dataCollectionSimplyId: collection.simplyId,
    language: input.language,
    suggestions: chosen.map((f) => ({
      dataFieldSimplyId: f.field.dataFieldSimplyId,
      columnName: f.field.columnName,
      title: f.field.title,
      dataType: f.field.dataType,
      currentDescription: f.description,
      suggestedDescription: found.get(f.field.dataFieldSimplyId) ?? null,
    })),
  };
}

/** PATCH …/apply-field-descriptions: writes exactly the listed descriptions (null clears one); other fields keep theirs. */
export async function applyFieldDescriptions(ctx: RequestContext, simplyId: string, raw: unknown): Promise<AdminDetail> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, 'dataCollectionSimplyId', 'collection');
  const input = parseInput(applyDescriptionsInput, raw, 'Invalid field descriptions');
  const id = await underSchemaLock(ctx, async (tx, schema) => {
    const collection = findCollection(schema, simplyId);
    ownFieldsOnly(collection);
    const fields = new Map(collection.ownFields.map((f) => [f.dataFieldSimplyId, f]));
    const details: ErrorDetail[] = [];
    input.descriptions.forEach((d, i) => {
      if (!fields.has(d.dataFieldSimplyId)) details.push({ field: `descriptions.${i}.dataFieldSimplyId`, message: 'is not a field of this collection' });
    });
    throwIfDetails('Invalid field descriptions', details);
    for (const d of input.descriptions) {
      const fieldId = fields.get(d.dataFieldSimplyId)!.id;
      const where = { teamId_collectionId_fieldId: { teamId: team.id, collectionId: collection.id, fieldId } };
      if (d.description === null) {
        await tx.dataFieldAdminSetting.updateMany({ where: { teamId: team.id, collectionId: collection.id, fieldId }, data: { description: Prisma.DbNull } });
        continue;
      }
      const value = (typeof d.description === 'string' ? d.description.trim() : d.description) as Prisma.InputJsonValue;
      await tx.dataFieldAdminSetting.upsert({ where, create: { teamId: team.id, collectionId: collection.id, fieldId, description: value }, update: { description: value } });
    }
    await tx.dataFieldAdminSetting.deleteMany({ where: { teamId: team.id, collectionId: collection.id, description: { equals: Prisma.DbNull }, display: { equals: {} } } });
    return collection.id;
  });
  return adminDetailOf(ctx, await freshAccess(ctx, team.id, id));
}
