// Saved layouts of a website (docs/api/websites.md "Saved layouts"): design fragments a site keeps
// for its pages. EDITOR writes, VIEWER reads. Deleting archives: the layout leaves the lists and
// can no longer be inserted, but the pages that reference it (SYNCED) keep showing it. A change of
// a SYNCED layout's content bumps `contentRevision`; pages read and render it as it is now
// (synced-layout.ts), and a trigger tells the served-page caches (…_website_saved_layouts).
import type { RequestContext } from '../../app/context.ts';
import { ApiError, NotFoundError, ValidationError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { Website, WebsiteSavedLayout } from '../../generated/prisma/client.ts';
import type { DesignComponent, DesignDocument } from './design-document.ts';
import { componentIdOf, walkComponents } from './design-document.ts';
import type { DesignOperation } from './design-operations.input.ts';
import type { PageDesign } from './designs.service.ts';
import { recordActivity } from './page-activity.ts';
import { createSavedLayoutInput, DESIGN_FORMATS, parseLayoutContent, SAVED_LAYOUT_LIMITS, updateSavedLayoutInput } from './saved-layouts.input.ts';
import { websiteSavedLayoutId } from './saved-layouts.ids.ts';
import { copyLayoutContent, isSyncedLayoutReference, layoutIdOf, mergeStyles } from './synced-layout.ts';
import { pageFor, siteFor } from './website-access.ts';

export interface SavedLayoutView {
  layout: WebsiteSavedLayout;
  websiteSimplyId: string;
}

/** Detaching a layout the page's draft does not reference. */
export class SyncedLayoutNotOnPageError extends ApiError {
  constructor(savedLayoutSimplyId: string) {
    super(409, 'WEBSITE_SYNCED_LAYOUT_NOT_ON_PAGE', `The page's draft has no reference to the synced layout ${savedLayoutSimplyId}`, {
      details: [{ field: 'savedLayoutSimplyId', message: 'is not a synced layout on this page’s draft' }],
    });
  }
}

const view = (layout: WebsiteSavedLayout, site: Website): SavedLayoutView => ({ layout, websiteSimplyId: site.simplyId });

export async function listSavedLayouts(ctx: RequestContext, websiteSimplyId: string, designFormat?: string | null): Promise<SavedLayoutView[]> {
  const db = ctx.services.prisma;
  const { site } = await siteFor(ctx, db, websiteSimplyId, 'VIEWER');
  if (designFormat != null && !(DESIGN_FORMATS as readonly string[]).includes(designFormat)) throw new ValidationError('Invalid filter', [{ field: 'designFormat', message: 'must be GRAPESJS_WEB or GRAPESJS_EMAIL' }]);
  const rows = await db.websiteSavedLayout.findMany({ where: { teamId: site.teamId, websiteId: site.id, archivedAt: null, ...(designFormat ? { designFormat } : {}) }, orderBy: { id: 'asc' } });
  return rows.map((r) => view(r, site));
}

export async function createSavedLayout(ctx: RequestContext, websiteSimplyId: string, raw: unknown): Promise<SavedLayoutView> {
  const input = parseInput(createSavedLayoutInput, raw, 'Invalid saved layout');
  const { content, details } = parseLayoutContent(input.contentJson);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, websiteSimplyId, 'EDITOR', { lock: true });
    if (details.length) throw new ValidationError('Invalid saved layout', details);
    const count = await tx.websiteSavedLayout.count({ where: { teamId: site.teamId, websiteId: site.id, archivedAt: null } });
    if (count >= SAVED_LAYOUT_LIMITS.perSite) throw new ValidationError('Invalid saved layout', [{ field: 'websiteSimplyId', message: `a website keeps at most ${SAVED_LAYOUT_LIMITS.perSite} saved layouts` }]);
    const layout = await tx.websiteSavedLayout.create({
      data: {
        simplyId: websiteSavedLayoutId.create(),
        teamId: site.teamId,
        websiteId: site.id,
        name: input.name,
        category: input.category,
        description: input.description ?? null,
        designFormat: input.designFormat ?? 'GRAPESJS_WEB',
        syncMode: input.syncMode ?? 'SNAPSHOT',
        contentJson: content as never,
        createdByUserId: ctx.principal.userId,
      },
    });
    return view(layout, site);
  });
}

/** The layout of the site (archived ones only with `archived`), 404 as for its site otherwise. */
async function layoutOf(db: Pick<Tx, 'websiteSavedLayout'>, site: Website, simplyId: string, archived: boolean): Promise<WebsiteSavedLayout> {
  websiteSavedLayoutId.assert(simplyId, 'savedLayoutSimplyId');
  const layout = await db.websiteSavedLayout.findUnique({ where: { teamId_simplyId: { teamId: site.teamId, simplyId } } });
  if (!layout || layout.websiteId !== site.id || (!archived && layout.archivedAt !== null)) throw new NotFoundError('Saved layout', simplyId);
  return layout;
}

export async function getSavedLayout(ctx: RequestContext, websiteSimplyId: string, savedLayoutSimplyId: string): Promise<SavedLayoutView> {
  const db = ctx.services.prisma;
  const { site } = await siteFor(ctx, db, websiteSimplyId, 'VIEWER');
  return view(await layoutOf(db, site, savedLayoutSimplyId, true), site);
}

export async function updateSavedLayout(ctx: RequestContext, websiteSimplyId: string, savedLayoutSimplyId: string, raw: unknown): Promise<SavedLayoutView> {
  const input = parseInput(updateSavedLayoutInput, raw, 'Invalid saved layout');
  const parsed = input.contentJson === undefined ? null : parseLayoutContent(input.contentJson);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { site } = await siteFor(ctx, tx, websiteSimplyId, 'EDITOR');
    const layout = await layoutOf(tx, site, savedLayoutSimplyId, false);
    if (parsed?.details.length) throw new ValidationError('Invalid saved layout', parsed.details);
    const data: Record<string, unknown> = {};
    if (input.name !== undefined) data.name = input.name;
    if (input.category !== undefined) data.category = input.category;
    if (input.description !== undefined) data.description = input.description;
    if (parsed) {
      data.contentJson = parsed.content;
      // an increment, not a read value: concurrent changes each count
      data.contentRevision = { increment: 1 };
      data.contentChangedAt = new Date();
    }
    if (Object.keys(data).length === 0) return view(layout, site);
    return view(await tx.websiteSavedLayout.update({ where: { id: layout.id, teamId: site.teamId }, data: data as never }), site);
  });
}

/** DELETE archives: out of the lists and no longer insertable; pages referencing it keep showing it. */
export async function archiveSavedLayout(ctx: RequestContext, websiteSimplyId: string, savedLayoutSimplyId: string): Promise<boolean> {
  const db = ctx.services.prisma;
  const { site } = await siteFor(ctx, db, websiteSimplyId, 'EDITOR');
  const layout = await layoutOf(db, site, savedLayoutSimplyId, false);
  const archived = await db.websiteSavedLayout.updateMany({ where: { id: layout.id, teamId: site.teamId, archivedAt: null }, data: { archivedAt: new Date() } });
  // a concurrent delete archived it first
  if (archived.count === 0) throw new NotFoundError('Saved layout', savedLayoutSimplyId);
  return true;
}

export interface InsertableLayout {
  designFormat: string;
  syncMode: string;
  content: DesignDocument;
}

/** The layouts `insertLayout` operations name that the site has (not archived), for design-patch.ts. */
export async function layoutsForOperations(db: Pick<Tx, 'websiteSavedLayout'>, site: Pick<Website, 'id' | 'teamId'>, operations: DesignOperation[]): Promise<Map<string, InsertableLayout>> {
  const wanted = [...new Set(operations.flatMap((op) => (op.op === 'insertLayout' ? [op.savedLayoutSimplyId] : [])))];
  if (wanted.length === 0) return new Map();
  const rows = await db.websiteSavedLayout.findMany({ where: { teamId: site.teamId, websiteId: site.id, archivedAt: null, simplyId: { in: wanted } } });
  return new Map(rows.map((r) => [r.simplyId, { designFormat: r.designFormat, syncMode: r.syncMode, content: r.contentJson as unknown as DesignDocument }]));
}

/** Replaces each reference to the layout in `components` with a copy of its content; answers how many it replaced. */
function replaceReferences(components: DesignComponent[], layoutSimplyId: string, content: DesignDocument, used: Set<string>, styles: DesignDocument['styles']): number {
  let replaced = 0;
  for (let i = 0; i < components.length; i++) {
    const c = components[i]!;
    if (isSyncedLayoutReference(c) && layoutIdOf(c) === layoutSimplyId) {
      const copy = copyLayoutContent(content, used);
      mergeStyles(styles, copy.styles ?? []);
      components.splice(i, 1, ...copy.components);
      i += copy.components.length - 1;
      replaced++;
    } else if (Array.isArray(c.components)) replaced += replaceReferences(c.components, layoutSimplyId, content, used, styles);
  }
  return replaced;
}

/** POST …/synced-layouts/{id}/detach: the page's references to the layout become copies of its content. */
export async function detachSyncedLayout(ctx: RequestContext, pageSimplyId: string, savedLayoutSimplyId: string): Promise<PageDesign> {
  websiteSavedLayoutId.assert(savedLayoutSimplyId, 'savedLayoutSimplyId');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { page: found, site } = await pageFor(ctx, tx, pageSimplyId, 'EDITOR');
    await tx.$queryRawUnsafe('SELECT 1 FROM "WebsitePage" WHERE "teamId" = $1 AND id = $2 FOR UPDATE', found.teamId, found.id);
    const page = await tx.websitePage.findUniqueOrThrow({ where: { id: found.id, teamId: found.teamId } });
    const team = requireTeam(ctx);
    const layout = await tx.websiteSavedLayout.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId: savedLayoutSimplyId } } });
    if (!layout || layout.websiteId !== site.id) throw new NotFoundError('Saved layout', savedLayoutSimplyId);
    const design = structuredClone(page.draftDesign as unknown as DesignDocument);
    design.styles ??= [];
    const used = new Set<string>();
    walkComponents(design.components, (c) => {
      const id = componentIdOf(c);
      if (id) used.add(id);
    });
    const replaced = replaceReferences(design.components, savedLayoutSimplyId, layout.contentJson as unknown as DesignDocument, used, design.styles);
    if (replaced === 0) throw new SyncedLayoutNotOnPageError(savedLayoutSimplyId);
    const revision = page.draftRevision + 1;
    const updated = await tx.websitePage.update({ where: { id: page.id, teamId: page.teamId }, data: { draftDesign: design as never, draftRevision: revision } });
    await recordActivity(tx, page, 'EDITED', { userId: ctx.principal.userId, summary: `Detached the layout ${layout.name}`, revision, details: { detachedLayout: savedLayoutSimplyId, references: replaced } });
    return { page: updated, websiteSimplyId: site.simplyId };
  });
}
