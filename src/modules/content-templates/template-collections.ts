// Document templates and collections: the templates a collection offers (its own and those
// assigned to its parent collections, which its records may use too), reassigning a template to
// another collection, copying a template, and the refused unlink (every document template keeps
// exactly one collection).
import type { RequestContext } from '../../app/context.ts';
import { ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { runTransaction } from '../../app/transaction.ts';
import { contentTemplateId } from './content-templates.ids.ts';
import { TemplateArchivedError, TemplateLinkRefusedError } from './content-templates.errors.ts';
import { copyContentTemplateInput, linkTemplateInput } from './content-templates.input.ts';
import {
  findTemplate,
  fullView,
  lockTemplate,
  personalOwner,
  viewOf,
  visibilityOf,
  type TemplateView,
} from './content-templates.service.ts';
import { findTemplatePage } from './content-templates.sql.ts';
import { DEFAULT_DOCUMENT_SETTINGS } from './document-settings.input.ts';
import { collectionAt, lineageOf, requireLibrary } from './template-access.ts';

/** More than any collection chain holds; the listing is not paged. */
const COLLECTION_LISTING_LIMIT = 1000;

/**
 * The active document templates the collection offers: assigned to it, then inherited from its
 * parent, grandparent …, each group by name. Needs view access to the collection.
 */
export async function collectionTemplates(ctx: RequestContext, dataCollectionSimplyId: string): Promise<TemplateView[]> {
  const team = requireTeam(ctx);
  const { schema, collection } = await collectionAt(ctx, dataCollectionSimplyId, 'VIEW');
  const chain = lineageOf(schema, collection);
  const visibility = await visibilityOf(ctx, schema);
  const rows = await findTemplatePage(
    ctx.services.pool,
    // inherited templates are offered here whatever the caller may do on the ancestor: the permission is this collection's
    { teamId: team.id, includeArchived: false, collectionIds: chain.map((c) => c.id), visibility: visibility && { ...visibility, readableCollectionIds: null } },
    'name_ASC',
    COLLECTION_LISTING_LIMIT,
    0,
  );
  const depth = new Map(chain.map((c, i) => [c.id, i]));
  return rows
    .map((r) => ({ ...viewOf(r, schema), inherited: r.dataCollectionId !== collection.id }))
    .sort((a, b) => depth.get(a.dataCollectionId!)! - depth.get(b.dataCollectionId!)!);
}

/**
 * Reassigns a document template to the collection (edit access to both its current collection and
 * the new one). Its records and those of the collection's children may use it from then on.
 */
export async function linkTemplate(ctx: RequestContext, dataCollectionSimplyId: string, raw: unknown): Promise<{ dataCollectionSimplyId: string; contentTemplateSimplyId: string }> {
  const input = parseInput(linkTemplateInput, raw, 'Invalid link');
  const { collection } = await collectionAt(ctx, dataCollectionSimplyId, 'EDIT');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { row } = await lockTemplate(ctx, tx, input.contentTemplateSimplyId, 'EDIT');
    if (row.kind !== 'DOCUMENT') throw new TemplateLinkRefusedError('Only document templates are assigned to collections; this template is an outgoing-message or canned-response template');
    if (row.archivedAt) throw new TemplateArchivedError(row.simplyId);
    if (row.dataCollectionId !== collection.id) await tx.contentTemplate.update({ where: { id: row.id }, data: { dataCollectionId: collection.id } });
    return { dataCollectionSimplyId: collection.simplyId, contentTemplateSimplyId: row.simplyId };
  });
}

/**
 * Always refused once the template and collection are known: a document template keeps exactly
 * one collection (link it elsewhere instead), and other templates have none.
 */
export async function unlinkTemplate(ctx: RequestContext, dataCollectionSimplyId: string, contentTemplateSimplyId: string): Promise<never> {
  contentTemplateId.assert(contentTemplateSimplyId, 'contentTemplateSimplyId');
  await collectionAt(ctx, dataCollectionSimplyId, 'VIEW');
  const { row } = await findTemplate(ctx, contentTemplateSimplyId, 'VIEW');
  if (row.kind === 'DOCUMENT') {
    throw new TemplateLinkRefusedError('A document template keeps exactly one collection: assign it to another collection with POST /v1/content-templates/collection/{dataCollectionSimplyId}/link, or archive it');
  }
  throw new TemplateLinkRefusedError('Only document templates are assigned to collections; this template has no collection to remove');
}

/**
 * A new template with the source's name, description, text, design and settings (view access to
 * the source). With a collection (or from a document template) the copy is a document template of
 * that collection (edit access there; default: the source's collection and scope); a PERSONAL
 * copy is the caller's. Without one, an outgoing-message or canned-response template is copied as
 * such (library edit).
 */
export async function copyTemplate(ctx: RequestContext, simplyId: string, raw: unknown): Promise<TemplateView> {
  const team = requireTeam(ctx);
  const input = parseInput(copyContentTemplateInput, raw ?? {}, 'Invalid copy');
  const { row: source, schema } = await findTemplate(ctx, simplyId, 'VIEW');
  const common = {
    simplyId: contentTemplateId.create(),
    teamId: team.id,
    name: source.name as never,
    nameKey: source.nameKey,
    description: (source.description ?? undefined) as never,
    textContent: source.textContent,
    designJson: (source.designJson ?? undefined) as never,
    designHtml: source.designHtml,
    createdByKind: ctx.principal.kind,
    createdById: ctx.principal.credentialId,
  };
  const targetId = input.dataCollectionSimplyId ?? (source.kind === 'DOCUMENT' ? schema.collectionsById.get(source.dataCollectionId!)?.simplyId : undefined);
  if (targetId === undefined) {
    if (source.kind === 'DOCUMENT') throw new ValidationError('The source template has no collection', [{ field: 'dataCollectionSimplyId', message: 'is required: the source template\'s collection no longer exists' }]);
    if (input.templateScope !== undefined) throw new ValidationError('templateScope belongs to document copies', [{ field: 'templateScope', message: 'give dataCollectionSimplyId too (the copy becomes a document template of that collection)' }]);
    requireLibrary(ctx.principal, 'EDIT');
    const row = await ctx.services.prisma.contentTemplate.create({
      data: { ...common, kind: 'MESSAGE', deliveryMethod: source.deliveryMethod, usageTypes: source.usageTypes, documentSettings: (source.documentSettings ?? undefined) as never },
    });
    return fullView(ctx, row, schema);
  }
  const target = await collectionAt(ctx, targetId, 'EDIT');
  const scope = input.templateScope ?? source.templateScope ?? 'TEAM';
  const owner = scope === 'PERSONAL' ? await personalOwner(ctx, null) : null;
  // a design needs page settings: a message template's design gets the defaults
  const settings = source.documentSettings ?? (source.designHtml !== null || source.designJson !== null ? DEFAULT_DOCUMENT_SETTINGS : null);
  const row = await ctx.services.prisma.contentTemplate.create({
    data: {
      ...common,
      kind: 'DOCUMENT',
      usageTypes: [],
      dataCollectionId: target.collection.id,
      templateScope: scope,
      ownerMembershipId: owner,
      documentSettings: (settings ?? undefined) as never,
    },
  });
  return fullView(ctx, row, target.schema);
}
