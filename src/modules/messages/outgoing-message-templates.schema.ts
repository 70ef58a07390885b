// GraphQL face of template authoring (docs/api/outgoing-message-templates.md). REST:
// rest-adapter/routes/messages.ts, /v1/outgoing-message-templates. Privileged with the feature
// OUTGOING_MESSAGES_TEMPLATES: view to read and preview, edit to write (API keys and signed-in
// members; session tokens refused; team admins pass). The templates are those of /v1/message-templates.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, patchById, withArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { simplyIdFields } from '../../app/graphql/item-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { DELIVERY_METHODS, DESIGN_FORMATS } from './message-templates.input.ts';
import { MessageDeliveryMethodEnum, MessageDesignFormatEnum } from './message-templates.schema.ts';
import { deleteMessageTemplate } from './message-templates.service.ts';
import { AUTHORING_LIMITS, TEMPLATE_SORTS, TEXT_LIMITS } from './outgoing-message-templates.input.ts';
import {
  collectionOf,
  contentOf,
  createOutgoingMessageTemplate,
  duplicateOutgoingMessageTemplate,
  getOutgoingMessageTemplate,
  listOutgoingMessageTemplates,
  mergeTagsOfTemplate,
  previewOutgoingMessageTemplate,
  smsOf,
  templateIssues,
  updateOutgoingMessageTemplate,
  type AuthoredTemplate,
  type ListOutgoingMessageTemplatesArgs,
  type TemplateIssue,
  type TemplatePreview,
} from './outgoing-message-templates.service.ts';
import type { SmsSegments } from './sms-segments.ts';

const FEATURE = 'OUTGOING_MESSAGES_TEMPLATES';

const SmsEncodingEnum = builder.enumType('SmsEncoding', {
  values: {
    GSM_7: { description: 'only characters of the GSM 7-bit alphabet: 160 in one message, 153 per segment' },
    UCS_2: { description: 'any other character: 70 in one message, 67 per segment' },
  },
});
const IssueSeverityEnum = builder.enumType('MessageTemplateIssueSeverity', { values: ['BLOCKING', 'WARNING', 'INFO'] as const });

const SmsSegmentsRef = builder.objectRef<SmsSegments>('SmsSegments').implement({
  description: 'How many SMS segments a text takes, with its merge tags counted as written.',
  fields: (t) => ({
    encoding: t.field({ type: SmsEncodingEnum, resolve: (s) => s.encoding }),
    characters: t.exposeInt('characters', { description: 'GSM-7 septets (an extension character such as € counts two) or UCS-2 units (most emoji count two)' }),
    segments: t.exposeInt('segments'),
    perSegment: t.exposeInt('perSegment', { description: 'characters a segment holds for this text (160 or 70 in one message, 153 or 67 once split)' }),
  }),
});

const IssueRef = builder.objectRef<TemplateIssue>('MessageTemplateIssue').implement({
  fields: (t) => ({
    severity: t.field({ type: IssueSeverityEnum, resolve: (i) => i.severity }),
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    field: t.string({ nullable: true, resolve: (i) => i.field }),
  }),
});

export const OutgoingMessageTemplateRef = builder.objectRef<AuthoredTemplate>('OutgoingMessageTemplate').implement({
  description: 'A message template with its authored content: subject, preheader, HTML body and design, plain text or SMS body.',
  fields: (t) => ({
    ...simplyIdFields(t, 'outgoingMessageTemplateSimplyId'),
    name: t.string({ resolve: (m) => m.row.name }),
    description: t.string({ nullable: true, resolve: (m) => m.row.description }),
    deliveryMethod: t.field({ type: MessageDeliveryMethodEnum, resolve: (m) => m.row.deliveryMethod as never }),
    designFormat: t.field({ type: MessageDesignFormatEnum, resolve: (m) => m.row.designFormat as never }),
    subjectLine: t.string({ nullable: true, description: 'EMAIL only; merge tags allowed', resolve: (m) => m.row.subjectLine }),
    preheader: t.string({ nullable: true, description: 'EMAIL only: the preview line mail programs show after the subject; merge tags allowed', resolve: (m) => m.row.preheader }),
    htmlContent: t.string({ nullable: true, description: 'EMAIL HTML only: the body, sanitized when stored', resolve: async (m, _a, ctx) => (await contentOf(ctx, m)).htmlContent }),
    textContent: t.string({ nullable: true, description: 'the plain-text part of an email, or the body of an SMS, WhatsApp or Facebook message', resolve: async (m, _a, ctx) => (await contentOf(ctx, m)).textContent }),
    designJson: t.field({ type: 'JSON', nullable: true, description: "the email builder's own JSON, stored as sent", resolve: async (m, _a, ctx) => (await contentOf(ctx, m)).designJson ?? null }),
    dataCollectionSimplyId: t.string({
      nullable: true,
      description: 'the collection whose fields the merge tags name; null: none, or deleted since',
      resolve: async (m, _a, ctx) => (await collectionOf(ctx, m.row))?.collection.simplyId ?? null,
    }),
    mergeTags: t.stringList({ description: 'the distinct merge tags of the subject, preheader and bodies, in order of first appearance', resolve: (m, _a, ctx) => mergeTagsOfTemplate(ctx, m) }),
    sms: t.field({ type: SmsSegmentsRef, nullable: true, description: 'SMS templates: the segments the body takes as written', resolve: (m, _a, ctx) => smsOf(ctx, m) }),
    issues: t.field({ type: [IssueRef], description: 'what to know before a message starts from it; BLOCKING first, then WARNING, then INFO', resolve: (m, _a, ctx) => templateIssues(ctx, m) }),
    archivedAt: t.field({ type: 'DateTime', nullable: true, description: 'when DELETE archived it; null while active', resolve: (m) => m.row.archivedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.row.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (m) => m.row.updatedAt }),
  }),
});

const OutgoingMessageTemplatePageRef = pageType('OutgoingMessageTemplatePage', OutgoingMessageTemplateRef);

const PreviewRef = builder.objectRef<TemplatePreview>('OutgoingMessageTemplatePreview').implement({
  description: 'A template filled in from sample values and/or a record; nothing is stored.',
  fields: (t) => ({
    outgoingMessageTemplateSimplyId: t.exposeString('outgoingMessageTemplateSimplyId'),
    subjectLine: t.string({ nullable: true, resolve: (p) => p.subjectLine }),
    preheader: t.string({ nullable: true, resolve: (p) => p.preheader }),
    html: t.string({ nullable: true, description: 'the HTML body with the hidden preheader first; null for a text template', resolve: (p) => p.html }),
    text: t.string({ nullable: true, resolve: (p) => p.text }),
    sms: t.field({ type: SmsSegmentsRef, nullable: true, description: 'SMS templates: the segments of the filled-in text', resolve: (p) => p.sms }),
    unfilledMergeTags: t.stringList({ description: 'tags filled with nothing: no sample value, field of the record or built-in names them', resolve: (p) => p.unfilledMergeTags }),
  }),
});

const textLimits = Object.entries(TEXT_LIMITS).map(([channel, max]) => `${channel} ${max}`).join(', ');

// strings and JSON rather than enums, so a wrong value is the documented 400 naming the field on both faces
const CreateInput = builder.inputType('CreateOutgoingMessageTemplateInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: `1-${AUTHORING_LIMITS.name} characters (trimmed)` }),
    description: t.string({ description: `at most ${AUTHORING_LIMITS.description} characters` }),
    deliveryMethod: t.string({ description: `${DELIVERY_METHODS.join(', ')}; default EMAIL` }),
    designFormat: t.string({ description: `${DESIGN_FORMATS.join(', ')}; default HTML for EMAIL, PLAIN_TEXT otherwise (HTML is for EMAIL only)` }),
    subjectLine: t.string({ description: `EMAIL only; one line of at most ${AUTHORING_LIMITS.subjectLine} characters` }),
    preheader: t.string({ description: `EMAIL only; one line of at most ${AUTHORING_LIMITS.preheader} characters` }),
    htmlContent: t.string({ description: `EMAIL HTML only; at most ${AUTHORING_LIMITS.htmlContent} characters; sanitized when stored` }),
    textContent: t.string({ description: `characters at most: ${textLimits}` }),
    designJson: t.field({ type: 'JSON', description: `EMAIL HTML only; a JSON object of at most ${AUTHORING_LIMITS.designJson} characters` }),
    dataCollectionSimplyId: t.string({ description: 'the collection whose fields the merge tags name (read access needed); tags are checked against it' }),
  }),
});

const UpdateInput = builder.inputType('UpdateOutgoingMessageTemplateInput', {
  description: 'Fields left out stay as they are; null clears (not name). The channel and design format are fixed when created.',
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    subjectLine: t.string(),
    preheader: t.string(),
    htmlContent: t.string(),
    textContent: t.string(),
    designJson: t.field({ type: 'JSON' }),
    dataCollectionSimplyId: t.string(),
  }),
});

const DuplicateInput = builder.inputType('DuplicateOutgoingMessageTemplateInput', {
  fields: (t) => ({ name: t.string({ description: 'the copy\'s name; default: the source\'s with " (copy)"' }) }),
});

const PreviewInput = builder.inputType('OutgoingMessageTemplatePreviewInput', {
  fields: (t) => ({
    dataRecordSimplyId: t.string({ description: "a record the caller may read (of the template's collection, when it names one); its fields fill the tags" }),
    sampleValues: t.field({ type: 'JSON', description: `{ "<tag name>": "text" }: values for tags, ahead of the record's (at most ${AUTHORING_LIMITS.sampleValues})` }),
  }),
});

builder.queryFields((t) => ({
  outgoingMessageTemplates: t.field({
    type: OutgoingMessageTemplatePageRef,
    description: `The team's message templates (privileged, ${FEATURE} view), newest first unless sorted (${TEMPLATE_SORTS.join(', ')}); archived ones only with includeArchived.`,
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    args: {
      ...pageArgs(t.arg),
      deliveryMethod: t.arg.string({ description: DELIVERY_METHODS.join(', ') }),
      designFormat: t.arg.string({ description: DESIGN_FORMATS.join(', ') }),
      dataCollectionSimplyId: t.arg.string({ description: 'only templates written for this collection' }),
      search: t.arg.string({ description: 'text the name contains (case-insensitive)' }),
      sort: t.arg.string({ description: TEMPLATE_SORTS.join(', ') }),
      includeArchived: t.arg.boolean(),
    },
    resolve: withArgs((ctx, args: ListOutgoingMessageTemplatesArgs) => listOutgoingMessageTemplates(ctx, args)),
  }),
  outgoingMessageTemplate: t.field({
    type: OutgoingMessageTemplateRef,
    description: `One template with its content and issues, archived ones included (privileged, ${FEATURE} view).`,
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    ...byId(t.arg, 'outgoingMessageTemplateSimplyId', getOutgoingMessageTemplate),
  }),
  outgoingMessageTemplatePreview: t.field({
    type: PreviewRef,
    description: `The template filled in from sample values and/or a readable record; nothing is stored (privileged, ${FEATURE} view).`,
    authScopes: tier.privileged(FEATURE, 'VIEW'),
    args: { outgoingMessageTemplateSimplyId: t.arg.string({ required: true }), input: t.arg({ type: PreviewInput }) },
    resolve: (_root, args, ctx) => previewOutgoingMessageTemplate(ctx, args.outgoingMessageTemplateSimplyId, givenFields(args.input ?? {})),
  }),
}));

builder.mutationFields((t) => ({
  createOutgoingMessageTemplate: t.field({
    type: OutgoingMessageTemplateRef,
    description: `Privileged, ${FEATURE} edit. The HTML is sanitized before it is stored; merge tags are checked.`,
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { input: t.arg({ type: CreateInput, required: true }) },
    resolve: (_root, args, ctx) => createOutgoingMessageTemplate(ctx, givenFields(args.input)),
  }),
  updateOutgoingMessageTemplate: t.field({
    type: OutgoingMessageTemplateRef,
    description: `Privileged, ${FEATURE} edit. An archived template cannot be changed (409).`,
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    ...patchById(t.arg, 'outgoingMessageTemplateSimplyId', UpdateInput, updateOutgoingMessageTemplate),
  }),
  deleteOutgoingMessageTemplate: t.boolean({
    description: `Privileged, ${FEATURE} edit. Archives the template (sets archivedAt); archiving it again is 404.`,
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    ...byId(t.arg, 'outgoingMessageTemplateSimplyId', deleteMessageTemplate),
  }),
  duplicateOutgoingMessageTemplate: t.field({
    type: OutgoingMessageTemplateRef,
    description: `Privileged, ${FEATURE} edit. An active copy of the template (archived sources too).`,
    authScopes: tier.privileged(FEATURE, 'EDIT'),
    args: { outgoingMessageTemplateSimplyId: t.arg.string({ required: true }), input: t.arg({ type: DuplicateInput }) },
    resolve: (_root, args, ctx) => duplicateOutgoingMessageTemplate(ctx, args.outgoingMessageTemplateSimplyId, givenFields(args.input ?? {})),
  }),
}));
