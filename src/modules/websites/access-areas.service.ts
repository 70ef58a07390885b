// Access areas: gated sections of a website (docs/api/websites.md "Access areas"). OWNER manages
// them, VIEWER reads them. Writes take the site's row lock, so a page is the root of at most one
// area of its site also under concurrent writes. What an area means for a page and a visitor is
// access-gates.ts; the served site enforces it (served-access.ts).
import type { RequestContext } from '../../app/context.ts';
import { ApiError, type ErrorDetail, NotFoundError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { accessTo, canReadCollection, normalizeFilters } from '../../kernel/index.ts';
import type { Website, WebsiteAccessArea } from '../../generated/prisma/client.ts';
import { type Admission, ACCESS_AREA_LIMITS, createAccessAreaInput, createRootPageAreaInput, updateAccessAreaInput } from './access-areas.input.ts';
import { areasByPage } from './access-gates.ts';
import { insertPage } from './page-insert.ts';
import { PageTree } from './page-tree.ts';
import { siteFor, type WebsitesDb } from './website-access.ts';
import { websiteAccessAreaId, websitePageId } from './websites.ids.ts';

export interface AccessAreaView {
  area: WebsiteAccessArea;
  websiteSimplyId: string;
  /** the root pages that exist now, with their paths */
  rootPages: { pageSimplyId: string; title: string; path: string }[];
}

/** A page that is already the root of another area of the site. */
export class AccessAreaPageTakenError extends ApiError {
  constructor(field: string, pageSimplyId: string, other: string) {
    super(409, 'WEBSITE_ACCESS_AREA_PAGE_TAKEN', `Page ${pageSimplyId} is already the root page of access area ${other}: a page is the root of at most one area`, {
      details: [{ field, message: `is the root page of ${other}` }],
    });
  }
}

type TreeRow = { id: bigint; simplyId: string; parentId: bigint | null; slug: string; position: number; isHomePage: boolean; title: string };

async function loadTree(db: Pick<Tx, 'websitePage'>, site: Website): Promise<{ tree: PageTree; titles: Map<string, string> }> {
  const rows: TreeRow[] = await db.websitePage.findMany({
    where: { teamId: site.teamId, websiteId: site.id },
    select: { id: true, simplyId: true, parentId: true, slug: true, position: true, isHomePage: true, title: true },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
  });
  return { tree: new PageTree(rows), titles: new Map(rows.map((r) => [r.simplyId, r.title])) };
}

function viewOf(area: WebsiteAccessArea, site: Website, tree: PageTree, titles: Map<string, string>): AccessAreaView {
  const bySimplyId = new Map(tree.pages.map((p) => [p.simplyId, p]));
  const rootPages = area.rootPageSimplyIds.flatMap((id) => {
    const page = bySimplyId.get(id);
    return page ? [{ pageSimplyId: id, title: titles.get(id) ?? '', path: tree.path(page.id) }] : [];
  });
  return { area, websiteSimplyId: site.simplyId, rootPages };
}

/** 400 details for rules naming collections the caller cannot read, or filters that do not fit them. */
async function checkAdmits(ctx: RequestContext, admits: Admission[], field = 'admits'): Promise<ErrorDetail[]> {
  const schema = await ctx.services.schemas.get(requireTeam(ctx).id);
  const details: ErrorDetail[] = [];
  admits.forEach((rule, i) => {
    const collection = schema.collectionsBySimplyId.get(rule.dataCollectionSimplyId);
    // a collection the caller cannot read is not named as there: its records are none of their business
    if (!collection || collection.isArchived || !canReadCollection(ctx.principal, collection)) {
      details.push({ field: `${field}.${i}.dataCollectionSimplyId`, message: 'is not a collection of this team that you can read' });
      return;
    }
    const normalized = normalizeFilters(accessTo(ctx.principal, schema, collection).readable, rule.filters ?? []);
    if (!normalized.ok) details.push(...normalized.details.map((d) => ({ ...d, field: `${field}.${i}.${(d.field ?? 'filters').replace(/\[(\d+)\]/g, '.$1')}` })));
  });
  return details;
}

/** 400 for root pages that are not the site's, 409 for a page another area has as its root. */
async function checkRootPages(tx: Tx, site: Website, tree: PageTree, rootPageSimplyIds: string[], except: bigint | null): Promise<void> {
  const pages = new Set(tree.pages.map((p) => p.simplyId));
  const missing = rootPageSimplyIds.flatMap((id, i) => (pages.has(id) ? [] : [{ field: `rootPageSimplyIds.${i}`, message: `page ${id} is not a page of this website` }]));
  if (missing.length) throw new ValidationError('Invalid access area', missing);
  const others = await tx.websiteAccessArea.findMany({ where: { teamId: site.teamId, websiteId: site.id, ...(except === null ? {} : { NOT: { id: except } }) }, select: { simplyId: true, rootPageSimplyIds: true } });
  for (const [i, id] of rootPageSimplyIds.entries()) {
    const other = others.find((o) => o.rootPageSimplyIds.includes(id));
    if (other) throw new AccessAreaPageTakenError(`rootPageSimplyIds.${i}`, id, other.simplyId);
  }
}

async function assertRoomForArea(tx: Tx, site: Website): Promise<void> {
  const count = await tx.websiteAccessArea.count({ where: { teamId: site.teamId, websiteId: site.id } });
  if (count >= ACCESS_AREA_LIMITS.areasPerSite) throw new ValidationError('Invalid access area', [{ field: 'websiteSimplyId', message: `a website has at most ${ACCESS_AREA_LIMITS.areasPerSite} access areas` }]);
}

export async function listAccessAreas(ctx: RequestContext, websiteSimplyId: string): Promise<AccessAreaView[]> {
  const db = ctx.services.prisma;
  const { site } = await siteFor(ctx, db, websiteSimplyId, 'VIEWER');
  const [areas, { tree, titles }] = await Promise.all([db.websiteAccessArea.findMany({ where: { teamId: site.teamId, websiteId: site.id }, orderBy: { id: 'asc' } }), loadTree(db, site)]);
  return areas.map((a) => viewOf(a, site, tree, titles));
}

export async function createAccessArea(ctx: RequestContext, websiteSimplyId: string, raw: unknown): Promise<AccessAreaView> {
  const input = parseInput(createAccessAreaInput, raw, 'Invalid access area');
  const admitProblems = await checkAdmits(ctx, input.admits);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, websiteSimplyId, 'OWNER', { lock: true });
    if (admitProblems.length) throw new ValidationError('Invalid access area', admitProblems);
    const { tree, titles } = await loadTree(tx, site);
    await checkRootPages(tx, site, tree, input.rootPageSimplyIds, null);
    await assertRoomForArea(tx, site);
    const area = await tx.websiteAccessArea.create({
      data: {
        simplyId: websiteAccessAreaId.create(),
        teamId: site.teamId,
        websiteId: site.id,
        name: input.name,
        rootPageSimplyIds: input.rootPageSimplyIds,
        admits: input.admits as never,
        signInMessage: input.signInMessage ?? null,
        enabled: input.enabled ?? true,
        createdByUserId: ctx.principal.userId,
      },
    });
    return viewOf(area, site, tree, titles);
  });
}

/** POST …/access-areas/root-page: a new root page and the area covering it, in one commit. */
export async function createRootPageAccessArea(ctx: RequestContext, websiteSimplyId: string, raw: unknown): Promise<AccessAreaView> {
  const input = parseInput(createRootPageAreaInput, raw, 'Invalid access area');
  const admitProblems = await checkAdmits(ctx, input.admits);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, websiteSimplyId, 'OWNER', { lock: true });
    if (admitProblems.length) throw new ValidationError('Invalid access area', admitProblems);
    await assertRoomForArea(tx, site);
    const page = await insertPage(ctx, tx, site, { title: input.page.title, slug: input.page.slug, parentId: null, field: 'page' });
    const area = await tx.websiteAccessArea.create({
      data: {
        simplyId: websiteAccessAreaId.create(),
        teamId: site.teamId,
        websiteId: site.id,
        name: input.name,
        rootPageSimplyIds: [page.simplyId],
        admits: input.admits as never,
        signInMessage: input.signInMessage ?? null,
        enabled: input.enabled ?? true,
        createdByUserId: ctx.principal.userId,
      },
    });
    const { tree, titles } = await loadTree(tx, site);
    return viewOf(area, site, tree, titles);
  });
}

/** The enabled area that applies to the page (its own, else its nearest ancestor's), or null: public. */
export async function effectiveAccessArea(ctx: RequestContext, websiteSimplyId: string, pageSimplyId: string): Promise<AccessAreaView | null> {
  const db = ctx.services.prisma;
  const { site } = await siteFor(ctx, db, websiteSimplyId, 'VIEWER');
  websitePageId.assert(pageSimplyId, 'pageSimplyId');
  const [areas, { tree, titles }] = await Promise.all([db.websiteAccessArea.findMany({ where: { teamId: site.teamId, websiteId: site.id }, orderBy: { id: 'asc' } }), loadTree(db, site)]);
  const page = tree.pages.find((p) => p.simplyId === pageSimplyId);
  if (!page) throw new NotFoundError('Website page', pageSimplyId);
  const area = areasByPage(tree.pages, areas).get(page.id);
  return area ? viewOf(area, site, tree, titles) : null;
}

/** The area `simplyId` with its site, the caller's role reaching `needed` (404 as for its site). */
async function areaFor(ctx: RequestContext, db: WebsitesDb & Pick<Tx, 'websiteAccessArea'>, simplyId: string, options: { lock?: boolean }): Promise<{ site: Website; area: WebsiteAccessArea }> {
  websiteAccessAreaId.assert(simplyId, 'accessAreaSimplyId');
  const team = requireTeam(ctx);
  const found = await db.websiteAccessArea.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } }, select: { website: { select: { simplyId: true } } } });
  if (!found) throw new NotFoundError('Website access area', simplyId);
  let site: Website;
  try {
    ({ site } = await siteFor(ctx, db, found.website.simplyId, 'OWNER', options));
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError('Website access area', simplyId);
    throw error;
  }
  const area = await db.websiteAccessArea.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } } });
  if (!area) throw new NotFoundError('Website access area', simplyId);
  return { site, area };
}

/** PUT /v1/website-access-areas/{id}: only the fields sent change; `enabled: false` turns the area off. */
export async function updateAccessArea(ctx: RequestContext, accessAreaSimplyId: string, raw: unknown): Promise<AccessAreaView> {
  const input = parseInput(updateAccessAreaInput, raw, 'Invalid access area');
  const admitProblems = input.admits ? await checkAdmits(ctx, input.admits) : [];
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site, area } = await areaFor(ctx, tx, accessAreaSimplyId, { lock: true });
    if (admitProblems.length) throw new ValidationError('Invalid access area', admitProblems);
    const { tree, titles } = await loadTree(tx, site);
    if (input.rootPageSimplyIds) await checkRootPages(tx, site, tree, input.rootPageSimplyIds, area.id);
    const data: Record<string, unknown> = {};
    if (input.name !== undefined) data.name = input.name;
    if (input.rootPageSimplyIds !== undefined) data.rootPageSimplyIds = input.rootPageSimplyIds;
    if (input.admits !== undefined) data.admits = input.admits;
    if (input.signInMessage !== undefined) data.signInMessage = input.signInMessage;
    if (input.enabled !== undefined) data.enabled = input.enabled;
    const updated = Object.keys(data).length ? await tx.websiteAccessArea.update({ where: { id: area.id, teamId: site.teamId }, data: data as never }) : area;
    return viewOf(updated, site, tree, titles);
  });
}
