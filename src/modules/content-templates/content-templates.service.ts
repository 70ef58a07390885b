// Content templates (docs/api/content-templates.md): the library list, reads, create, PATCH with
// the design sanitized, and archive. Permissions are per template kind (template-access.ts), so
// the GraphQL fields are standard tier and the checks happen here, after the template is found.
// DELETE archives: the row stays readable by id (and in lists with includeArchived).
import { Prisma, type ContentTemplate } from '../../generated/prisma/client.ts';
import type { RequestContext } from '../../app/context.ts';
import { hasFullDataAccess } from '../../app/auth/principal.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../app/errors.ts';
import { membershipId } from '../../app/ids.ts';
import { paginationOf, parsePaging, type Page } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import type { TeamSchema } from '../../kernel/index.ts';
import { contentTemplateId } from './content-templates.ids.ts';
import { TemplateArchivedError } from './content-templates.errors.ts';
import {
  createContentTemplateInput,
  listContentTemplatesArgs,
  updateContentTemplateInput,
} from './content-templates.input.ts';
import { countTemplates, findTemplatePage, type TemplateFilter, type TemplateRow } from './content-templates.sql.ts';
import { sanitizeDesignHtml } from './design-sanitizer.ts';
import type { DocumentSettings } from './document-settings.input.ts';
import { assertTemplateAccess, callerMembership, canUseCollection, collectionAt, isAdmin, requireLibrary, type TemplateLevel } from './template-access.ts';

const LABEL = 'Content template';

/** The design of a template, read for details only. */
export interface TemplateDesign {
  designJson: unknown;
  designHtml: string | null;
  documentSettings: unknown;
}

/** A template as both faces show it. */
export interface TemplateView extends TemplateRow {
  dataCollectionSimplyId: string | null;
  /** loaded for details; list entries load it when a GraphQL caller selects it */
  design?: TemplateDesign;
  /** in a collection's listing: assigned to an ancestor, not to the collection itself */
  inherited?: boolean;
}

/** The lower-cased text of a name (every language), which search and name sort read. */
export function nameKeyOf(name: unknown): string {
  if (typeof name === 'string') return name.toLowerCase();
  if (name && typeof name === 'object') return Object.values(name as Record<string, string>).join(' ').toLowerCase();
  return '';
}

export function viewOf(row: TemplateRow, schema: TeamSchema, design?: TemplateDesign): TemplateView {
  const collection = row.dataCollectionId === null ? undefined : schema.collectionsById.get(row.dataCollectionId);
  return { ...row, dataCollectionSimplyId: collection?.simplyId ?? null, ...(design ? { design } : {}) };
}

/** The list row and the design of a full Prisma row. */
export async function fullView(ctx: RequestContext, row: ContentTemplate, schema: TeamSchema): Promise<TemplateView> {
  const owner = row.ownerMembershipId === null ? null : await ctx.services.prisma.teamMembership.findFirst({ where: { teamId: row.teamId, id: row.ownerMembershipId }, select: { simplyId: true } });
  return viewOf(
    {
      id: row.id,
      simplyId: row.simplyId,
      kind: row.kind,
      name: row.name,
      description: row.description,
      textContent: row.textContent,
      hasDesign: row.designHtml !== null || row.designJson !== null,
      hasDocumentSettings: row.documentSettings !== null,
      deliveryMethod: row.deliveryMethod,
      usageTypes: row.usageTypes,
      dataCollectionId: row.dataCollectionId,
      templateScope: row.templateScope,
      ownerMembershipId: row.ownerMembershipId,
      ownerSimplyId: owner?.simplyId ?? null,
      archivedAt: row.archivedAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    },
    schema,
    { designJson: row.designJson, designHtml: row.designHtml, documentSettings: row.documentSettings },
  );
}

/** The template of the caller's team the caller may use at `level` (404: missing, another team's, someone else's PERSONAL one). */
export async function findTemplate(ctx: RequestContext, simplyId: string, level: TemplateLevel, db: Tx | RequestContext['services']['prisma'] = ctx.services.prisma): Promise<{ row: ContentTemplate; schema: TeamSchema }> {
  const team = requireTeam(ctx);
  contentTemplateId.assert(simplyId, 'contentTemplateSimplyId');
  const [row, schema] = await Promise.all([db.contentTemplate.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } }), ctx.services.schemas.get(team.id)]);
  if (!row) throw new NotFoundError(LABEL, simplyId);
  await assertTemplateAccess(ctx, row, schema, level);
  return { row, schema };
}

/** The same, with the row locked until the transaction ends (writers of one template take turns). */
export async function lockTemplate(ctx: RequestContext, tx: Tx, simplyId: string, level: TemplateLevel): Promise<{ row: ContentTemplate; schema: TeamSchema }> {
  const team = requireTeam(ctx);
  contentTemplateId.assert(simplyId, 'contentTemplateSimplyId');
  await tx.$queryRaw`SELECT id FROM "ContentTemplate" WHERE "teamId" = ${team.id} AND "simplyId" = ${simplyId} FOR NO KEY UPDATE`;
  return findTemplate(ctx, simplyId, level, tx);
}

/** The visibility filter of the caller's lists (null: a team admin sees every template). */
export async function visibilityOf(ctx: RequestContext, schema: TeamSchema): Promise<TemplateFilter['visibility']> {
  const p = ctx.principal;
  if (isAdmin(p)) return null;
  const readable = hasFullDataAccess(p, 'READ') ? null : schema.collections.filter((c) => canUseCollection(p, c, 'VIEW')).map((c) => c.id);
  return { readableCollectionIds: readable, membershipId: (await callerMembership(ctx))?.id ?? null };
}

/** The library: the team's templates the caller may see, newest first unless sorted otherwise. */
export async function listContentTemplates(ctx: RequestContext, raw: Record<string, unknown>): Promise<Page<TemplateView>> {
  const team = requireTeam(ctx);
  requireLibrary(ctx.principal, 'VIEW');
  const args = parseInput(listContentTemplatesArgs, raw, 'Invalid list parameters');
  const paging = parsePaging(args);
  const schema = await ctx.services.schemas.get(team.id);
  const search = args.search?.trim().toLowerCase();
  const filter: TemplateFilter = {
    teamId: team.id,
    includeArchived: args.includeArchived === true,
    search: search || null,
    usageType: args.usageType ?? null,
    visibility: await visibilityOf(ctx, schema),
  };
  const rows = await findTemplatePage(ctx.services.pool, filter, args.sort ?? 'createdAt_DESC', paging.limit, paging.offset);
  return { nodes: rows.map((r) => viewOf(r, schema)), pagination: await paginationOf(rows.length, paging, () => countTemplates(ctx.services.pool, filter)) };
}

export async function getContentTemplate(ctx: RequestContext, simplyId: string): Promise<TemplateView> {
  const { row, schema } = await findTemplate(ctx, simplyId, 'VIEW');
  return fullView(ctx, row, schema);
}

/** The design of a list entry, when a GraphQL caller selects it there. */
export async function designOf(ctx: RequestContext, view: TemplateView): Promise<TemplateDesign> {
  if (view.design) return view.design;
  const row = await ctx.services.prisma.contentTemplate.findUnique({ where: { id: view.id }, select: { designJson: true, designHtml: true, documentSettings: true } });
  view.design = row ?? { designJson: null, designHtml: null, documentSettings: null };
  return view.design;
}

/** Header and footer HTML sanitized like a design. */
export function cleanSettings(settings: DocumentSettings): DocumentSettings {
  return {
    ...settings,
    headerHtml: settings.headerHtml === null ? null : sanitizeDesignHtml(settings.headerHtml),
    footerHtml: settings.footerHtml === null ? null : sanitizeDesignHtml(settings.footerHtml),
  };
}

/** Who a PERSONAL template belongs to: the named member (team admins only), else the caller. */
export async function personalOwner(ctx: RequestContext, named: string | null, field = 'templateScope'): Promise<bigint> {
  const team = requireTeam(ctx);
  if (named !== null) {
    if (!isAdmin(ctx.principal)) throw new PermissionDeniedError('Only a Team Admin may create a PERSONAL template for another member (ownerTeamUserLinkSimplyId)');
    membershipId.assert(named, 'ownerTeamUserLinkSimplyId');
    const member = await ctx.services.prisma.teamMembership.findFirst({ where: { teamId: team.id, simplyId: named, isActive: true }, select: { id: true } });
    if (!member) throw new NotFoundError('Team member', named);
    return member.id;
  }
  const me = await callerMembership(ctx);
  if (!me) {
    throw new ValidationError('A PERSONAL template belongs to a team member; an API key or session token is none', [
      { field, message: 'PERSONAL needs a signed-in member as its owner (or a Team Admin naming ownerTeamUserLinkSimplyId); use TEAM' },
    ]);
  }
  return me.id;
}

export async function createContentTemplate(ctx: RequestContext, raw: unknown): Promise<TemplateView> {
  const team = requireTeam(ctx);
  const input = parseInput(createContentTemplateInput, raw, 'Invalid content template');
  const common = {
    simplyId: contentTemplateId.create(),
    teamId: team.id,
    name: input.name,
    nameKey: nameKeyOf(input.name),
    description: input.description ?? undefined,
    textContent: input.textContent,
    createdByKind: ctx.principal.kind,
    createdById: ctx.principal.credentialId,
  };
  let data: Prisma.ContentTemplateUncheckedCreateInput;
  let schema: TeamSchema;
  if (input.kind === 'MESSAGE') {
    requireLibrary(ctx.principal, 'EDIT');
    schema = await ctx.services.schemas.get(team.id);
    data = { ...common, kind: 'MESSAGE', deliveryMethod: input.deliveryMethod, usageTypes: input.usageTypes };
  } else {
    const target = await collectionAt(ctx, input.dataCollectionSimplyId, 'EDIT');
    schema = target.schema;
    const owner = input.templateScope === 'PERSONAL' ? await personalOwner(ctx, input.ownerTeamUserLinkSimplyId) : null;
    data = {
      ...common,
      kind: 'DOCUMENT',
      usageTypes: [],
      dataCollectionId: target.collection.id,
      templateScope: input.templateScope,
      ownerMembershipId: owner,
      documentSettings: input.documentSettings ? (cleanSettings(input.documentSettings) as never) : undefined,
    };
  }
  const row = await ctx.services.prisma.contentTemplate.create({ data });
  return fullView(ctx, row, schema);
}

const jsonOrNull = (value: unknown) => (value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue));

/**
 * Changes the fields given (absent ones stay; null clears). A design (designJson or designHtml)
 * is accepted only on a template with documentSettings, or with documentSettings in the same
 * request; settings cannot be cleared while a design remains. An archived template is 409.
 */
export async function updateContentTemplate(ctx: RequestContext, simplyId: string, raw: unknown): Promise<TemplateView> {
  const input = parseInput(updateContentTemplateInput, raw, 'Invalid content template update');
  // sanitizing is the slow part: done before the row is locked
  const designHtml = input.designHtml == null ? input.designHtml : sanitizeDesignHtml(input.designHtml);
  const settings = input.documentSettings == null ? input.documentSettings : cleanSettings(input.documentSettings);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { row, schema } = await lockTemplate(ctx, tx, simplyId, 'EDIT');
    if (row.archivedAt) throw new TemplateArchivedError(simplyId);
    const nextSettings = settings !== undefined ? settings : row.documentSettings;
    const givesDesign = (input.designJson !== undefined && input.designJson !== null) || (designHtml !== undefined && designHtml !== null);
    const keepsDesign = (input.designJson !== undefined ? input.designJson : row.designJson) !== null || (designHtml !== undefined ? designHtml : row.designHtml) !== null;
    if (givesDesign && nextSettings === null) {
      throw new ValidationError('A design needs documentSettings first', [
        { field: 'documentSettings', message: 'set documentSettings before (or in the same request as) designJson or designHtml' },
      ]);
    }
    if (settings === null && keepsDesign) {
      throw new ValidationError('documentSettings cannot be cleared while the template has a design', [
        { field: 'documentSettings', message: 'clear designJson and designHtml in the same request, or keep documentSettings' },
      ]);
    }
    const data: Prisma.ContentTemplateUpdateInput = {};
    if (input.name !== undefined) {
      data.name = input.name;
      data.nameKey = nameKeyOf(input.name);
    }
    if (input.description !== undefined) data.description = jsonOrNull(input.description);
    if (input.textContent !== undefined) data.textContent = input.textContent;
    if (input.designJson !== undefined) data.designJson = jsonOrNull(input.designJson);
    if (designHtml !== undefined) data.designHtml = designHtml;
    if (settings !== undefined) data.documentSettings = jsonOrNull(settings);
    const updated = Object.keys(data).length === 0 ? row : await tx.contentTemplate.update({ where: { id: row.id }, data });
    return fullView(ctx, updated, schema);
  });
}

/**
 * Archives the template (sets archivedAt; nothing is destroyed, consumers keep working). Archiving
 * it again is 404, as for message templates: of concurrent deletes exactly one archives.
 */
export async function deleteContentTemplate(ctx: RequestContext, simplyId: string): Promise<boolean> {
  const { row } = await findTemplate(ctx, simplyId, 'EDIT');
  const { count } = await ctx.services.prisma.contentTemplate.updateMany({ where: { id: row.id, archivedAt: null }, data: { archivedAt: new Date() } });
  if (count === 0) throw new NotFoundError(LABEL, simplyId);
  return true;
}
