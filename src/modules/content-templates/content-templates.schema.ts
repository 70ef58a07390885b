// GraphQL face of content templates (docs/api/content-templates.md). REST:
// rest-adapter/routes/content-templates.ts. The library list is standard tier with the feature
// TEAM_ADMIN_CONTENT_TEMPLATE_LIBRARY (view); every other field is standard tier and its service
// checks the permission the template's kind needs (the library feature, or the data permission
// on a document template's collection), since which one applies is known only once it is found.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { byId, pageArgs, patchById, withArgs } from '../../app/graphql/args.ts';
import { givenFields } from '../../app/graphql/input-fields.ts';
import { pageType } from '../../app/graphql/page.ts';
import { ORIENTATIONS, PAGE_SIZES, documentSettingsInput, type DocumentSettings } from './document-settings.input.ts';
import { CONTENT_TEMPLATE_LIMITS, TEMPLATE_DELIVERY_METHODS, TEMPLATE_SCOPES, TEMPLATE_SORTS, USAGE_TYPES } from './content-templates.input.ts';
import {
  createContentTemplate,
  deleteContentTemplate,
  designOf,
  getContentTemplate,
  listContentTemplates,
  updateContentTemplate,
  type TemplateView,
} from './content-templates.service.ts';
import { collectionTemplates, copyTemplate, linkTemplate, unlinkTemplate } from './template-collections.ts';
import { previewRender, type PreviewRender } from './template-preview.ts';
import { templateReadiness, type Readiness, type ReadinessIssue } from './template-readiness.ts';
import { templateUsage, type TemplateUsage, type UsageCollection } from './template-usage.ts';

const LIBRARY = 'TEAM_ADMIN_CONTENT_TEMPLATE_LIBRARY';

const FormatEnum = builder.enumType('ContentTemplateFormat', {
  values: {
    MESSAGE: { description: 'an outgoing-message or canned-response template (the library feature)' },
    DOCUMENT: { description: 'a document template of one collection (data permission on it)' },
  },
});
const UsageTypeEnum = builder.enumType('ContentTemplateUsageType', { values: USAGE_TYPES });
const SeverityEnum = builder.enumType('ContentTemplateIssueSeverity', { values: ['BLOCKING', 'WARNING', 'INFO'] as const });

const MarginsRef = builder.objectRef<DocumentSettings['marginsMm']>('DocumentPageMargins').implement({
  description: 'Page margins in millimetres.',
  fields: (t) => ({ top: t.exposeFloat('top'), right: t.exposeFloat('right'), bottom: t.exposeFloat('bottom'), left: t.exposeFloat('left') }),
});

const DocumentSettingsRef = builder.objectRef<DocumentSettings>('DocumentSettings').implement({
  description: 'The page a document template is laid out on.',
  fields: (t) => ({
    pageSize: t.string({ description: PAGE_SIZES.join(', '), resolve: (s) => s.pageSize }),
    orientation: t.string({ description: ORIENTATIONS.join(', '), resolve: (s) => s.orientation }),
    marginsMm: t.field({ type: MarginsRef, resolve: (s) => s.marginsMm }),
    headerHtml: t.string({ nullable: true, description: 'drawn in the top margin of every page', resolve: (s) => s.headerHtml }),
    footerHtml: t.string({ nullable: true, description: 'drawn in the bottom margin of every page', resolve: (s) => s.footerHtml }),
  }),
});

export const ContentTemplateRef = builder.objectRef<TemplateView>('ContentTemplate').implement({
  description: 'A reusable content template: an outgoing-message or canned-response body, or a document template of a collection.',
  fields: (t) => ({
    id: t.string({ resolve: (v) => v.simplyId }),
    contentTemplateSimplyId: t.string({ resolve: (v) => v.simplyId }),
    templateFormat: t.field({ type: FormatEnum, resolve: (v) => v.kind as never }),
    name: t.field({ type: 'LocalizedText', resolve: (v) => v.name as never }),
    description: t.field({ type: 'LocalizedText', nullable: true, resolve: (v) => (v.description ?? null) as never }),
    textContent: t.string({ nullable: true, resolve: (v) => v.textContent }),
    hasDesign: t.boolean({ resolve: (v) => v.hasDesign }),
    hasDocumentSettings: t.boolean({ resolve: (v) => v.hasDocumentSettings }),
    usageTypes: t.field({
      type: [UsageTypeEnum],
      description: 'what the template backs; STANDALONE when nothing',
      resolve: (v) => (v.usageTypes.length > 0 ? v.usageTypes : ['STANDALONE']) as never,
    }),
    deliveryMethod: t.string({ nullable: true, description: `${TEMPLATE_DELIVERY_METHODS.join(' or ')}; null for document templates`, resolve: (v) => (v.kind === 'DOCUMENT' ? null : v.deliveryMethod) }),
    dataCollectionSimplyId: t.string({ nullable: true, description: 'the collection a document template is assigned to', resolve: (v) => v.dataCollectionSimplyId }),
    templateScope: t.string({ nullable: true, description: `${TEMPLATE_SCOPES.join(' or ')} (document templates)`, resolve: (v) => v.templateScope }),
    ownerTeamUserLinkSimplyId: t.string({ nullable: true, description: 'the team membership owning a PERSONAL template', resolve: (v) => v.ownerSimplyId }),
    inherited: t.boolean({ nullable: true, description: "in a collection's listing: true when assigned to a parent collection; null elsewhere", resolve: (v) => v.inherited ?? null }),
    archivedAt: t.field({ type: 'DateTime', nullable: true, description: 'when DELETE archived it; null while active', resolve: (v) => v.archivedAt }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => v.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (v) => v.updatedAt }),
    designJson: t.field({ type: 'JSON', nullable: true, description: "the design editor's JSON (details)", resolve: async (v, _a, ctx) => (await designOf(ctx, v)).designJson ?? null }),
    designHTML: t.string({ nullable: true, description: 'the sanitized design HTML (details)', resolve: async (v, _a, ctx) => (await designOf(ctx, v)).designHtml }),
    documentSettings: t.field({
      type: DocumentSettingsRef,
      nullable: true,
      description: 'page size, orientation, margins, header and footer (details)',
      resolve: async (v, _a, ctx) => {
        const stored = (await designOf(ctx, v)).documentSettings;
        if (stored === null || stored === undefined) return null;
        const parsed = documentSettingsInput.safeParse(stored);
        return parsed.success ? parsed.data : null;
      },
    }),
  }),
});

const ContentTemplatePageRef = pageType('ContentTemplatePage', ContentTemplateRef);

const IssueRef = builder.objectRef<ReadinessIssue>('ContentTemplateReadinessIssue').implement({
  fields: (t) => ({
    severity: t.field({ type: SeverityEnum, resolve: (i) => i.severity }),
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    field: t.string({ nullable: true, resolve: (i) => i.field }),
  }),
});

const ReadinessRef = builder.objectRef<Readiness>('ContentTemplateReadiness').implement({
  fields: (t) => ({
    contentTemplateSimplyId: t.exposeString('contentTemplateSimplyId'),
    ready: t.boolean({ description: 'no BLOCKING issue', resolve: (r) => r.ready }),
    issues: t.field({ type: [IssueRef], description: 'BLOCKING first, then WARNING, then INFO', resolve: (r) => r.issues }),
  }),
});

const UsageCollectionRef = builder.objectRef<UsageCollection>('ContentTemplateUsageCollection').implement({
  fields: (t) => ({
    dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId'),
    name: t.field({ type: 'LocalizedText', resolve: (c) => c.name as never }),
    inherited: t.exposeBoolean('inherited'),
    activeMembershipCount: t.exposeInt('activeMembershipCount'),
  }),
});

const WrapperRef = builder.objectRef<{ usageType: string }>('ContentTemplateWrapper').implement({
  fields: (t) => ({ usageType: t.field({ type: UsageTypeEnum, resolve: (w) => w.usageType as never }) }),
});

const UsageRef = builder.objectRef<TemplateUsage>('ContentTemplateUsage').implement({
  fields: (t) => ({
    contentTemplateSimplyId: t.exposeString('contentTemplateSimplyId'),
    assignedCollection: t.field({ type: UsageCollectionRef, nullable: true, resolve: (u) => u.assignedCollection }),
    inheritingCollections: t.field({ type: [UsageCollectionRef], resolve: (u) => u.inheritingCollections }),
    membershipCount: t.exposeInt('membershipCount'),
    wrappers: t.field({ type: [WrapperRef], resolve: (u) => u.wrappers }),
    signingProfiles: t.field({ type: ['JSON'], description: 'none exist yet: always empty', resolve: (u) => u.signingProfiles }),
    recentGenerationEvents: t.field({ type: ['JSON'], description: 'documents are not generated yet: always empty', resolve: (u) => u.recentGenerationEvents }),
  }),
});

const PreviewRef = builder.objectRef<PreviewRender>('ContentTemplatePreview').implement({
  fields: (t) => ({
    html: t.exposeString('html', { description: 'a whole HTML document: page setup, header, body, footer' }),
    bodyHtml: t.exposeString('bodyHtml'),
    headerHtml: t.string({ nullable: true, resolve: (p) => p.headerHtml }),
    footerHtml: t.string({ nullable: true, resolve: (p) => p.footerHtml }),
  }),
});

const LinkRef = builder.objectRef<{ dataCollectionSimplyId: string; contentTemplateSimplyId: string }>('ContentTemplateLink').implement({
  fields: (t) => ({ dataCollectionSimplyId: t.exposeString('dataCollectionSimplyId'), contentTemplateSimplyId: t.exposeString('contentTemplateSimplyId') }),
});

// strings and JSON rather than enums and typed objects, so a wrong value is the documented 400 naming the field on both faces
const CreateInput = builder.inputType('CreateContentTemplateInput', {
  description: 'Without dataCollectionSimplyId: an outgoing-message or canned-response template. With it: a document template of that collection.',
  fields: (t) => ({
    name: t.field({ type: 'JSON', required: true, description: `text of 1-${CONTENT_TEMPLATE_LIMITS.name} characters, or { "<language tag>": text }` }),
    description: t.field({ type: 'JSON', description: `text of at most ${CONTENT_TEMPLATE_LIMITS.description} characters, or { "<language tag>": text }` }),
    textContent: t.string({ description: 'required for outgoing-message and canned-response templates; merge tags allowed' }),
    usageTypes: t.stringList({ description: 'OUTGOING_MESSAGE and/or CANNED_RESPONSE (required without a collection); document templates: STANDALONE' }),
    deliveryMethod: t.string({ description: `${TEMPLATE_DELIVERY_METHODS.join(' or ')}; default EMAIL (not for document templates)` }),
    documentSettings: t.field({ type: 'JSON', description: 'document templates: { pageSize, orientation, marginsMm, headerHtml, footerHtml }' }),
    dataCollectionSimplyId: t.string({ description: 'makes it a document template of this collection' }),
    templateScope: t.string({ description: `${TEMPLATE_SCOPES.join(' or ')}; default TEAM (document templates)` }),
    ownerTeamUserLinkSimplyId: t.string({ description: 'PERSONAL templates, Team Admins only: the member who owns it (default: the caller)' }),
  }),
});

const UpdateInput = builder.inputType('UpdateContentTemplateInput', {
  description: 'Fields left out stay as they are; null clears (not name). A design needs documentSettings first or in the same request.',
  fields: (t) => ({
    name: t.field({ type: 'JSON' }),
    description: t.field({ type: 'JSON' }),
    textContent: t.string(),
    designJson: t.field({ type: 'JSON', description: `a JSON object of at most ${CONTENT_TEMPLATE_LIMITS.designJson} characters` }),
    designHtml: t.string({ description: 'sanitized when stored (scripts, event handlers, javascript: links, frames, forms … removed)' }),
    documentSettings: t.field({ type: 'JSON', description: 'replaces the settings as a whole (defaults fill what is left out)' }),
  }),
});

const CopyInput = builder.inputType('CopyContentTemplateInput', {
  fields: (t) => ({
    dataCollectionSimplyId: t.string({ description: "the copy's collection (default: the source's); makes the copy a document template" }),
    templateScope: t.string({ description: `${TEMPLATE_SCOPES.join(' or ')} (default: the source's, else TEAM)` }),
  }),
});

const PreviewInput = builder.inputType('ContentTemplatePreviewInput', {
  fields: (t) => ({
    dataRecordSimplyId: t.string({ required: true, description: 'a record the caller may read; its fields fill the merge tags' }),
    previewRoleKey: t.string({ description: 'reserved for signing roles; accepted and ignored for now' }),
  }),
});

builder.queryFields((t) => ({
  contentTemplates: t.field({
    type: ContentTemplatePageRef,
    description: `The template library (${LIBRARY} view): the team's templates the caller may see, newest first unless sorted (${TEMPLATE_SORTS.join(', ')}); archived ones only with includeArchived.`,
    authScopes: tier.standardFeature(LIBRARY, 'VIEW'),
    args: {
      ...pageArgs(t.arg),
      search: t.arg.string({ description: 'text the name contains (any language, case-insensitive)' }),
      usageType: t.arg.string({ description: USAGE_TYPES.join(', ') }),
      sort: t.arg.string({ description: TEMPLATE_SORTS.join(', ') }),
      includeArchived: t.arg.boolean(),
    },
    resolve: withArgs((ctx, args: Record<string, unknown>) => listContentTemplates(ctx, args)),
  }),
  contentTemplate: t.field({
    type: ContentTemplateRef,
    description: 'One template with its design, archived ones included (library view, or read access to a document template\'s collection).',
    authScopes: tier.standard,
    ...byId(t.arg, 'contentTemplateSimplyId', getContentTemplate),
  }),
  contentTemplateReadiness: t.field({
    type: ReadinessRef,
    description: 'Issues graded BLOCKING, WARNING, INFO (view).',
    authScopes: tier.standard,
    ...byId(t.arg, 'contentTemplateSimplyId', templateReadiness),
  }),
  contentTemplateUsage: t.field({
    type: UsageRef,
    description: 'Where the template is used (view).',
    authScopes: tier.standard,
    ...byId(t.arg, 'contentTemplateSimplyId', templateUsage),
  }),
  contentTemplatePreview: t.field({
    type: PreviewRef,
    description: 'The template filled in from one readable record, as HTML; nothing is stored (view).',
    authScopes: tier.standard,
    args: { contentTemplateSimplyId: t.arg.string({ required: true }), input: t.arg({ type: PreviewInput, required: true }) },
    resolve: (_root, args, ctx) => previewRender(ctx, args.contentTemplateSimplyId, givenFields(args.input)),
  }),
  collectionContentTemplates: t.field({
    type: [ContentTemplateRef],
    description: "Active document templates of the collection and those inherited from its parent collections, nearest first (read access to the collection).",
    authScopes: tier.standard,
    ...byId(t.arg, 'dataCollectionSimplyId', collectionTemplates),
  }),
}));

builder.mutationFields((t) => ({
  createContentTemplate: t.field({
    type: ContentTemplateRef,
    description: `${LIBRARY} edit; a document template: edit access to its collection.`,
    authScopes: tier.standard,
    args: { input: t.arg({ type: CreateInput, required: true }) },
    resolve: (_root, args, ctx) => createContentTemplate(ctx, givenFields(args.input)),
  }),
  updateContentTemplate: t.field({
    type: ContentTemplateRef,
    description: 'Edit permission of its kind. An archived template cannot be changed (409).',
    authScopes: tier.standard,
    ...patchById(t.arg, 'contentTemplateSimplyId', UpdateInput, updateContentTemplate),
  }),
  deleteContentTemplate: t.boolean({
    description: 'Archives the template (consumers keep working); archiving it again is 404.',
    authScopes: tier.standard,
    ...byId(t.arg, 'contentTemplateSimplyId', deleteContentTemplate),
  }),
  copyContentTemplate: t.field({
    type: ContentTemplateRef,
    description: 'A copy (view on the source; edit where the copy goes).',
    authScopes: tier.standard,
    args: { contentTemplateSimplyId: t.arg.string({ required: true }), input: t.arg({ type: CopyInput }) },
    resolve: (_root, args, ctx) => copyTemplate(ctx, args.contentTemplateSimplyId, givenFields(args.input ?? {})),
  }),
  linkContentTemplate: t.field({
    type: LinkRef,
    description: 'Reassigns a document template to the collection (edit on both collections); its child collections inherit it.',
    authScopes: tier.standard,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), contentTemplateSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => linkTemplate(ctx, args.dataCollectionSimplyId, { contentTemplateSimplyId: args.contentTemplateSimplyId }),
  }),
  unlinkContentTemplate: t.boolean({
    description: 'Always refused (400 VALIDATION_ERROR): a document template keeps exactly one collection, other templates have none.',
    authScopes: tier.standard,
    args: { dataCollectionSimplyId: t.arg.string({ required: true }), contentTemplateSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => unlinkTemplate(ctx, args.dataCollectionSimplyId, args.contentTemplateSimplyId),
  }),
}));
