// Template authoring (docs/api/outgoing-message-templates.md): the whole of a message template —
// subject and preheader, the HTML body (sanitized before it is stored, by the content templates'
// design sanitizer) with the email builder's design JSON, the plain-text part or SMS body — on the
// same templates (`mtp-…`) as the simple /v1/message-templates. Privileged: OUTGOING_MESSAGES_TEMPLATES
// (view to read and preview, edit to write), never a scoped token, checked by the schema's tier.
// Merge tags are checked when the texts are saved: look-alikes always, and against the fields of the
// template's collection when it names one.
import { Prisma, type OutgoingMessageTemplate } from '../../generated/prisma/client.ts';
import { hasDataAccess } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError, ValidationError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { paginationOf, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requestLoader } from '../../app/request-loader.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { accessTo, collectionFor, findRecords, type CollectionDefinition, type TeamSchema } from '../../kernel/index.ts';
import { needsResanitizing, sanitizeDesignHtml } from '../content-templates/index.ts';
import { SAMPLE_UNSUBSCRIBE_SEGMENT, UNSUBSCRIBE_PATH } from '../mail/index.ts';
import { parseTemplate, renderTemplate, unknownTags, UNSUBSCRIBE_URL_TAG, type MergeContext, type MergeField } from '../merge-tags/index.ts';
import { messageTemplateId } from './messages.ids.ts';
import { TemplateArchivedError } from './messages.errors.ts';
import { AUTHORED_CONTENT, findTemplate, type TemplateSummary } from './message-templates.service.ts';
import { DELIVERY_METHODS, DESIGN_FORMATS } from './message-templates.input.ts';
import {
  AUTHORING_LIMITS,
  channelIssues,
  createOutgoingMessageTemplateInput,
  defaultDesignFormat,
  duplicateOutgoingMessageTemplateInput,
  previewOutgoingMessageTemplateInput,
  TEMPLATE_SORTS,
  TEXT_LIMITS,
  updateOutgoingMessageTemplateInput,
  type TemplateSort,
} from './outgoing-message-templates.input.ts';
import { publicBaseUrl } from '../../app/public-address.ts';
import { smsSegments, type SmsSegments } from './sms-segments.ts';
import { BODY_TEXTS, mergeTagsOf, tagList, tagProblems, TAGGED_TEXTS, textsAroundTagsOf, unknownTagsOf, withPreheader } from './template-content.ts';

/** The authored content of a template: read with the template, or (a list entry) when a GraphQL caller selects it. */
export type TemplateContent = Pick<OutgoingMessageTemplate, 'htmlContent' | 'textContent' | 'designJson'>;

/** A template as the schema answers it: a list entry carries no content until asked for. */
export interface AuthoredTemplate {
  row: TemplateSummary;
  content?: TemplateContent;
}

export const authored = (row: OutgoingMessageTemplate): AuthoredTemplate => ({ row, content: row });

export interface ListOutgoingMessageTemplatesArgs extends PageInput {
  deliveryMethod?: string | null;
  designFormat?: string | null;
  dataCollectionSimplyId?: string | null;
  search?: string | null;
  sort?: string | null;
  includeArchived?: boolean | null;
}

const ORDER: Record<TemplateSort, Prisma.OutgoingMessageTemplateOrderByWithRelationInput[]> = {
  createdAt_DESC: [{ createdAt: 'desc' }, { id: 'desc' }],
  createdAt_ASC: [{ createdAt: 'asc' }, { id: 'asc' }],
  updatedAt_DESC: [{ updatedAt: 'desc' }, { id: 'desc' }],
  name_ASC: [{ name: 'asc' }, { id: 'asc' }],
};

function oneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new ValidationError(`${field} must be one of ${allowed.join(', ')}`, [{ field, message: `must be one of ${allowed.join(', ')}` }]);
  return value as T;
}

/** The team's templates, in the asked order (newest first by default), without their content. */
export async function listOutgoingMessageTemplates(ctx: RequestContext, args: ListOutgoingMessageTemplatesArgs): Promise<Page<AuthoredTemplate>> {
  const team = requireTeam(ctx);
  const paging = parsePaging(args);
  const where: Prisma.OutgoingMessageTemplateWhereInput = { teamId: team.id };
  if (args.deliveryMethod != null) where.deliveryMethod = oneOf('deliveryMethod', args.deliveryMethod, DELIVERY_METHODS);
  if (args.designFormat != null) where.designFormat = oneOf('designFormat', args.designFormat, DESIGN_FORMATS);
  const sort = args.sort == null ? 'createdAt_DESC' : oneOf('sort', args.sort, TEMPLATE_SORTS);
  if (args.search != null) {
    if (args.search.length > AUTHORING_LIMITS.search) throw new ValidationError('search is too long', [{ field: 'search', message: `must be at most ${AUTHORING_LIMITS.search} characters` }]);
    // Prisma hands `contains` to LIKE as it is: escaped here, so % and _ are the characters they look like
    if (args.search.trim() !== '') where.name = { contains: args.search.trim().replace(/[\\%_]/g, '\\$&'), mode: 'insensitive' };
  }
  if (args.dataCollectionSimplyId != null) {
    assertDataSimplyId(args.dataCollectionSimplyId, 'dataCollectionSimplyId', 'collection');
    const collection = (await ctx.services.schemas.get(team.id)).collectionsBySimplyId.get(args.dataCollectionSimplyId);
    // a collection the team does not have holds no template: an empty page, as any filter that matches nothing
    where.dataCollectionId = collection?.id ?? -1n;
  }
  if (args.includeArchived !== true) where.archivedAt = null;
  const { prisma } = ctx.services;
  const rows = await prisma.outgoingMessageTemplate.findMany({ where, omit: AUTHORED_CONTENT, orderBy: ORDER[sort], skip: paging.offset, take: paging.limit });
  return { nodes: rows.map((row) => ({ row })), pagination: await paginationOf(rows.length, paging, () => prisma.outgoingMessageTemplate.count({ where })) };
}

export async function getOutgoingMessageTemplate(ctx: RequestContext, simplyId: string): Promise<AuthoredTemplate> {
  return authored(await findTemplate(ctx, simplyId));
}

/** The content of a template, loaded for all list entries of a request in one query when a caller selects it. */
export async function contentOf(ctx: RequestContext, template: AuthoredTemplate): Promise<TemplateContent> {
  if (template.content) return template.content;
  const loader = requestLoader<bigint, TemplateContent>(
    ctx,
    'outgoingMessageTemplateContent',
    async (ids) => {
      const rows = await ctx.services.prisma.outgoingMessageTemplate.findMany({ where: { id: { in: [...ids] } }, select: { id: true, htmlContent: true, textContent: true, designJson: true } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? { htmlContent: null, textContent: null, designJson: null });
    },
    String,
  );
  template.content = await loader.load(template.row.id);
  return template.content;
}

/** The template's collection (the one its merge tags name), or null: none, or deleted since. */
export async function collectionOf(ctx: RequestContext, row: TemplateSummary): Promise<{ schema: TeamSchema; collection: CollectionDefinition } | null> {
  if (row.dataCollectionId === null) return null;
  const schema = await ctx.services.schemas.get(row.teamId);
  const collection = schema.collectionsById.get(row.dataCollectionId);
  return collection ? { schema, collection } : null;
}

/** The fields a caller's merge tags may name: those of the collection it may read. */
function readableFields(ctx: RequestContext, schema: TeamSchema, collection: CollectionDefinition): MergeField[] {
  return accessTo(ctx.principal, schema, collection).readable;
}

/** The HTML as stored: sanitized, and within the limit once sanitized. */
function cleanHtml(html: string | null | undefined): string | null | undefined {
  if (html == null) return html;
  const clean = sanitizeDesignHtml(html);
  if (clean.length > AUTHORING_LIMITS.htmlContent) {
    throw new ValidationError('htmlContent is too long', [{ field: 'htmlContent', message: `must be at most ${AUTHORING_LIMITS.htmlContent} characters once sanitized` }]);
  }
  return clean.trim() === '' ? null : clean;
}

const jsonOrNull = (value: Record<string, unknown> | null | undefined) => (value == null ? Prisma.DbNull : (value as Prisma.InputJsonValue));

function throwIfProblems(problems: { field: string; message: string }[], message: string): void {
  if (problems.length > 0) throw new ValidationError(message, problems);
}

export async function createOutgoingMessageTemplate(ctx: RequestContext, raw: unknown): Promise<AuthoredTemplate> {
  const team = requireTeam(ctx);
  const input = parseInput(createOutgoingMessageTemplateInput, raw, 'Invalid message template');
  const designFormat = input.designFormat ?? defaultDesignFormat(input.deliveryMethod);
  const access = input.dataCollectionSimplyId != null ? await collectionFor(ctx, input.dataCollectionSimplyId, 'READ') : null;
  throwIfProblems(tagProblems(input, access?.readable ?? null, access?.collection.simplyId ?? null), 'Invalid merge tags');
  const row = await ctx.services.prisma.outgoingMessageTemplate.create({
    data: {
      simplyId: messageTemplateId.create(),
      teamId: team.id,
      name: input.name,
      description: input.description ?? null,
      deliveryMethod: input.deliveryMethod,
      designFormat,
      subjectLine: input.subjectLine ?? null,
      preheader: input.preheader ?? null,
      htmlContent: cleanHtml(input.htmlContent) ?? null,
      textContent: input.textContent ?? null,
      designJson: jsonOrNull(input.designJson),
      dataCollectionId: access?.collection.id ?? null,
      createdByKind: ctx.principal.kind,
      createdById: ctx.principal.credentialId,
    },
  });
  return authored(row);
}

/**
 * Changes what the body names (absent keys stay; null clears). The channel and the design format
 * stay the template's. Texts sent are checked for their merge tags; naming another collection
 * checks every text of the template against it. An archived template is 409; the write is
 * conditional on it still being active, so an edit racing an archive lands before it or is refused.
 */
export async function updateOutgoingMessageTemplate(ctx: RequestContext, simplyId: string, raw: unknown): Promise<AuthoredTemplate> {
  const current = await findTemplate(ctx, simplyId);
  const input = parseInput(updateOutgoingMessageTemplateInput, raw, 'Invalid message template update');
  if (current.archivedAt) throw new TemplateArchivedError(simplyId);
  throwIfProblems(channelIssues(input, current.deliveryMethod, current.designFormat), 'Invalid message template update');

  let fields: MergeField[] | null = null;
  let collectionSimplyId: string | null = null;
  let collectionId = current.dataCollectionId;
  if (input.dataCollectionSimplyId !== undefined) {
    const access = input.dataCollectionSimplyId === null ? null : await collectionFor(ctx, input.dataCollectionSimplyId, 'READ');
    collectionId = access?.collection.id ?? null;
    fields = access?.readable ?? null;
    collectionSimplyId = access?.collection.simplyId ?? null;
  } else {
    const stored = await collectionOf(ctx, current);
    if (stored) {
      fields = readableFields(ctx, stored.schema, stored.collection);
      collectionSimplyId = stored.collection.simplyId;
    }
  }
  // a newly named collection: every text the template will have; otherwise the texts sent
  const newCollection = input.dataCollectionSimplyId != null && collectionId !== current.dataCollectionId;
  const texts = Object.fromEntries(TAGGED_TEXTS.map((field) => [field, input[field] !== undefined ? input[field] : newCollection ? current[field] : undefined]));
  throwIfProblems(tagProblems(texts, fields, collectionSimplyId), 'Invalid merge tags');

  const data: Prisma.OutgoingMessageTemplateUncheckedUpdateManyInput = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.description !== undefined) data.description = input.description;
  if (input.subjectLine !== undefined) data.subjectLine = input.subjectLine;
  if (input.preheader !== undefined) data.preheader = input.preheader;
  if (input.htmlContent !== undefined) data.htmlContent = cleanHtml(input.htmlContent) ?? null;
  if (input.textContent !== undefined) data.textContent = input.textContent;
  if (input.designJson !== undefined) data.designJson = jsonOrNull(input.designJson);
  if (input.dataCollectionSimplyId !== undefined) data.dataCollectionId = collectionId;
  const [updated] = await ctx.services.prisma.outgoingMessageTemplate.updateManyAndReturn({ where: { id: current.id, archivedAt: null }, data });
  if (!updated) throw new TemplateArchivedError(simplyId);
  return authored(updated);
}

/** A copy (active, whatever the source) with everything but its name, its creator and its times. */
export async function duplicateOutgoingMessageTemplate(ctx: RequestContext, simplyId: string, raw: unknown): Promise<AuthoredTemplate> {
  const source = await findTemplate(ctx, simplyId);
  const input = parseInput(duplicateOutgoingMessageTemplateInput, raw ?? {}, 'Invalid duplicate');
  const name = input.name ?? `${[...source.name].slice(0, AUTHORING_LIMITS.name - ' (copy)'.length).join('')} (copy)`;
  const row = await ctx.services.prisma.outgoingMessageTemplate.create({
    data: {
      simplyId: messageTemplateId.create(),
      teamId: source.teamId,
      name,
      description: source.description,
      deliveryMethod: source.deliveryMethod,
      designFormat: source.designFormat,
      subjectLine: source.subjectLine,
      preheader: source.preheader,
      htmlContent: source.htmlContent,
      textContent: source.textContent,
      designJson: source.designJson === null ? Prisma.DbNull : (source.designJson as Prisma.InputJsonValue),
      dataCollectionId: source.dataCollectionId,
      createdByKind: ctx.principal.kind,
      createdById: ctx.principal.credentialId,
    },
  });
  return authored(row);
}

// ---- issues

export type IssueSeverity = 'BLOCKING' | 'WARNING' | 'INFO';

export interface TemplateIssue {
  severity: IssueSeverity;
  code: string;
  message: string;
  field: string | null;
}

const SEVERITY_ORDER: Record<IssueSeverity, number> = { BLOCKING: 0, WARNING: 1, INFO: 2 };

/** What to know before a message is started from the template (BLOCKING: it cannot start one). */
export async function templateIssues(ctx: RequestContext, template: AuthoredTemplate): Promise<TemplateIssue[]> {
  const { row } = template;
  const content = await contentOf(ctx, template);
  const issues: TemplateIssue[] = [];
  const add = (severity: IssueSeverity, code: string, message: string, field: string | null = null) => issues.push({ severity, code, message, field });
  const email = row.deliveryMethod === 'EMAIL';
  const html = row.designFormat === 'HTML';
  if (row.archivedAt) add('BLOCKING', 'ARCHIVED', 'The template is archived: no new message can start from it (duplicate it for an active copy)');
  if (row.subjectLine !== null && row.subjectLine.length > AUTHORING_LIMITS.subjectLine) {
    add('BLOCKING', 'SUBJECT_TOO_LONG', `The subject line is longer than a message's ${AUTHORING_LIMITS.subjectLine} characters: shorten it to start a message from the template`, 'subjectLine');
  }
  const bodyField = html ? 'htmlContent' : 'textContent';
  if (!(html ? content.htmlContent : content.textContent)) add('WARNING', 'BODY_EMPTY', `The template has no body (${bodyField}): a message started from it needs one written`, bodyField);
  if (email && !row.subjectLine) add('WARNING', 'SUBJECT_MISSING', 'An email needs a subject line: a message started from it needs one written', 'subjectLine');
  if (email && html && content.htmlContent && !content.textContent) add('WARNING', 'NO_TEXT_VERSION', 'No plain-text part (textContent): readers whose mail program shows only text see an empty message', 'textContent');
  if (html && content.designJson !== null && !content.htmlContent) add('WARNING', 'DESIGN_WITHOUT_HTML', 'A design (designJson) without its HTML (htmlContent): only the HTML is sent', 'htmlContent');
  if (!email && row.designFormat === 'HTML') add('WARNING', 'HTML_ON_TEXT_CHANNEL', `A ${row.deliveryMethod} message carries text only: the template's HTML design is never sent`, 'designFormat');
  const limit = TEXT_LIMITS[row.deliveryMethod as keyof typeof TEXT_LIMITS];
  if (content.textContent && limit !== undefined && content.textContent.length > limit) add('WARNING', 'TEXT_TOO_LONG', `The text is longer than the ${limit} characters a ${row.deliveryMethod} message carries`, 'textContent');

  const texts = { subjectLine: row.subjectLine, preheader: row.preheader, htmlContent: content.htmlContent, textContent: content.textContent };
  const tags = mergeTagsOf(texts);
  const stored = await collectionOf(ctx, row);
  if (row.dataCollectionId !== null && !stored) {
    add('WARNING', 'COLLECTION_MISSING', 'The collection its merge tags were written for was deleted: its tags are no longer checked', 'dataCollectionSimplyId');
  } else if (stored && hasDataAccess(ctx.principal, stored.collection.simplyId, 'READ')) {
    const fields = readableFields(ctx, stored.schema, stored.collection);
    for (const field of TAGGED_TEXTS) {
      const text = texts[field];
      if (!text) continue;
      const unknown = unknownTagsOf(field, text, fields);
      if (unknown.length > 0) add('WARNING', 'UNKNOWN_MERGE_TAGS', `Merge tags that name no field of collection ${stored.collection.simplyId} (they render empty): ${tagList(unknown)}`, field);
    }
  } else if (!stored && tags.some((t) => t !== UNSUBSCRIBE_URL_TAG)) {
    add('INFO', 'MERGE_TAGS_UNCHECKED', 'The template names no collection: its merge tags are checked against the recipients\' collection when a message is sent', 'dataCollectionSimplyId');
  }
  if (email && (content.htmlContent || content.textContent) && !BODY_TEXTS.some((field) => texts[field] && parseTemplate(texts[field]!).tags.includes(UNSUBSCRIBE_URL_TAG))) {
    add('INFO', 'UNSUBSCRIBE_FOOTER_ADDED', 'No {{unsubscribe_url}} in the body: each copy gets a short footer with the recipient\'s unsubscribe link', bodyField);
  }
  if (row.deliveryMethod === 'SMS' && content.textContent) {
    const sms = smsSegments(content.textContent);
    if (sms.segments > 1) add('INFO', 'SMS_MULTIPART', `The text takes ${sms.segments} SMS segments (${sms.encoding}, as written): each segment is sent and charged as one message`, 'textContent');
  }
  return issues.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}

/** Segments of the SMS body as written (SMS templates only). */
export async function smsOf(ctx: RequestContext, template: AuthoredTemplate): Promise<SmsSegments | null> {
  if (template.row.deliveryMethod !== 'SMS') return null;
  return smsSegments((await contentOf(ctx, template)).textContent ?? '');
}

export async function mergeTagsOfTemplate(ctx: RequestContext, template: AuthoredTemplate): Promise<string[]> {
  const content = await contentOf(ctx, template);
  return mergeTagsOf({ subjectLine: template.row.subjectLine, preheader: template.row.preheader, htmlContent: content.htmlContent, textContent: content.textContent });
}

// ---- preview

export interface TemplatePreview {
  outgoingMessageTemplateSimplyId: string;
  subjectLine: string | null;
  preheader: string | null;
  /** the HTML body with the hidden preheader first; null for a PLAIN_TEXT template or one without HTML */
  html: string | null;
  text: string | null;
  /** of the filled-in text (SMS templates only) */
  sms: SmsSegments | null;
  /** tags filled with nothing: no sample value, and no field of the record (nor a built-in) names them */
  unfilledMergeTags: string[];
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/**
 * The template filled in from sample values and/or one record the caller may read (of the
 * template's collection, when it names one), without storing anything. Values are escaped in the
 * HTML, and the result sanitized again where escaping alone would not keep a value harmless (the
 * content templates' rule). `{{unsubscribe_url}}` in a body is the link of a sample page that
 * unsubscribes no one.
 */
export async function previewOutgoingMessageTemplate(ctx: RequestContext, simplyId: string, raw: unknown): Promise<TemplatePreview> {
  const team = requireTeam(ctx);
  const template = await findTemplate(ctx, simplyId);
  const input = parseInput(previewOutgoingMessageTemplateInput, raw ?? {}, 'Invalid preview');
  let fields: readonly MergeField[] = [];
  let record: MergeContext['record'] = null;
  if (input.dataRecordSimplyId != null) {
    assertDataSimplyId(input.dataRecordSimplyId, 'dataRecordSimplyId');
    const schema = await ctx.services.schemas.get(team.id);
    const [row] = await findRecords(ctx.services.pool, team.id, [input.dataRecordSimplyId]);
    const collection = row && schema.collectionsById.get(row.collectionId);
    const own = template.dataCollectionId === null ? undefined : schema.collectionsById.get(template.dataCollectionId);
    // a record the caller cannot read, or of another collection than the template's, is answered like a missing one
    if (!row || !collection || !hasDataAccess(ctx.principal, collection.simplyId, 'READ') || (own && schema.fieldSource(own).id !== row.collectionId)) {
      throw new NotFoundError('Data record', input.dataRecordSimplyId);
    }
    fields = readableFields(ctx, schema, collection);
    record = { simplyId: row.simplyId, calculatedName: row.calculatedName, values: row.values };
  }
  const samples = new Map<string, string>(Object.entries(input.sampleValues ?? {}));
  // in a body the composer's own tag wins over a sample of the same name, as it wins over a field when sent
  const bodyValues = new Map(samples).set(UNSUBSCRIBE_URL_TAG, `${publicBaseUrl(ctx.services)}${UNSUBSCRIBE_PATH}${SAMPLE_UNSUBSCRIBE_SEGMENT}`);
  const lineContext: MergeContext = { fields, record, values: samples };
  const bodyContext: MergeContext = { fields, record, values: bodyValues };

  const subjectLine = template.subjectLine === null ? null : oneLine(renderTemplate(template.subjectLine, lineContext, { maxLength: 10_000 }));
  const preheader = template.preheader === null ? null : oneLine(renderTemplate(template.preheader, lineContext, { maxLength: 10_000 }));
  let html: string | null = null;
  if (template.designFormat === 'HTML' && template.htmlContent) {
    const source = withPreheader(template.htmlContent, template.preheader);
    const rendered = renderTemplate(source, bodyContext, { html: true, maxLength: 500_000 });
    html = needsResanitizing(source) ? sanitizeDesignHtml(rendered) : rendered;
  }
  const text = template.textContent === null ? null : renderTemplate(template.textContent, bodyContext, { maxLength: TEXT_LIMITS.EMAIL });

  const unfilled = new Set<string>();
  for (const field of TAGGED_TEXTS) {
    const source = template[field];
    if (!source) continue;
    const pieces = BODY_TEXTS.includes(field) ? textsAroundTagsOf(source) : [source];
    for (const piece of pieces) {
      const names = record ? unknownTags(piece, fields) : [...parseTemplate(piece).tags];
      for (const name of names) if (!samples.has(name)) unfilled.add(name);
    }
  }
  return {
    outgoingMessageTemplateSimplyId: template.simplyId,
    subjectLine,
    preheader,
    html,
    text,
    sms: template.deliveryMethod === 'SMS' ? smsSegments(text ?? '') : null,
    unfilledMergeTags: [...unfilled],
  };
}
