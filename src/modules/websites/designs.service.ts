// A page's draft design: read it, patch it with design operations, outline its blocks, and read the
// page's activity (docs/api/websites.md "Designs"). A patch locks the page's row, so concurrent
// patches apply one after the other, each to the draft the one before left: none is lost. A client
// that wants to be told when the draft moved on under it sends `baseRevision` (409 when stale).
import type { RequestContext } from '../../app/context.ts';
import { ApiError, ValidationError } from '../../app/errors.ts';
import { pagination, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { runTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { WebsitePage } from '../../generated/prisma/client.ts';
import { componentIdOf, type DesignComponent, type DesignDocument, walkComponents } from './design-document.ts';
import { patchDesignInput } from './design-operations.input.ts';
import { applyDesignOperations } from './design-patch.ts';
import { recordActivity } from './page-activity.ts';
import { layoutsForOperations } from './saved-layouts.service.ts';
import { pageFor } from './website-access.ts';

export class DesignConflictError extends ApiError {
  constructor(baseRevision: number, current: number) {
    super(409, 'WEBSITE_DESIGN_CONFLICT', `The draft is at revision ${current}, not ${baseRevision}: read it again and apply your operations to it`, {
      details: [{ field: 'baseRevision', message: `the draft is at revision ${current}`, currentRevision: current }],
    });
  }
}

export interface PageDesign {
  page: WebsitePage;
  websiteSimplyId: string;
}

export async function getDesign(ctx: RequestContext, pageSimplyId: string): Promise<PageDesign> {
  const { page, site } = await pageFor(ctx, ctx.services.prisma, pageSimplyId, 'VIEWER');
  return { page, websiteSimplyId: site.simplyId };
}

export async function patchDesign(ctx: RequestContext, pageSimplyId: string, raw: unknown): Promise<PageDesign> {
  const input = parseInput(patchDesignInput, raw, 'Invalid design patch');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { page, site } = await pageFor(ctx, tx, pageSimplyId, 'EDITOR', { lockPage: true });
    if (input.baseRevision !== undefined && input.baseRevision !== page.draftRevision) throw new DesignConflictError(input.baseRevision, page.draftRevision);
    const result = applyDesignOperations(page.draftDesign as unknown as DesignDocument, input.operations, await layoutsForOperations(tx, site, input.operations));
    if ('problem' in result) throw new ValidationError('Invalid design patch: nothing was changed', [result.problem]);
    const revision = page.draftRevision + 1;
    // the designs are not read back: the new draft is at hand, and the published one did not change
    const updated = await tx.websitePage.update({
      where: { id: page.id, teamId: page.teamId },
      data: { draftDesign: result.design as never, draftRevision: revision },
      omit: { draftDesign: true, publishedDesign: true },
    });
    await recordActivity(tx, page, 'EDITED', { userId: ctx.principal.userId, summary: input.summary ?? null, revision, details: { operations: input.operations.length } });
    return { page: { ...updated, draftDesign: result.design as never, publishedDesign: page.publishedDesign }, websiteSimplyId: site.simplyId };
  });
}

export const OUTLINE_LIMIT = 500;

export interface OutlineBlock {
  id: string | null;
  type: string;
  tagName: string | null;
  depth: number;
  childCount: number;
  /** the block's text, shortened */
  label: string;
}

export interface BlocksOutline {
  page: WebsitePage;
  blocks: OutlineBlock[];
  totalComponents: number;
  truncated: boolean;
}

const textOf = (c: DesignComponent): string => {
  let text = typeof c.content === 'string' ? c.content : '';
  walkComponents(Array.isArray(c.components) ? c.components : [], (child) => {
    if (text.length < 200 && typeof child.content === 'string') text += ` ${child.content}`;
  });
  return text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
};

/** The draft's components (not text nodes) in document order, at most OUTLINE_LIMIT of them. */
export async function blocksOutline(ctx: RequestContext, pageSimplyId: string): Promise<BlocksOutline> {
  const { page } = await pageFor(ctx, ctx.services.prisma, pageSimplyId, 'VIEWER');
  const blocks: OutlineBlock[] = [];
  let total = 0;
  walkComponents((page.draftDesign as unknown as DesignDocument).components, (c, _at, depth) => {
    if (c.type === 'textnode') return;
    total++;
    if (blocks.length >= OUTLINE_LIMIT) return;
    const label = textOf(c);
    blocks.push({
      id: componentIdOf(c) ?? null,
      type: c.type ?? 'default',
      tagName: c.tagName ?? null,
      depth,
      childCount: Array.isArray(c.components) ? c.components.filter((k) => k.type !== 'textnode').length : 0,
      label: label.length > 80 ? `${label.slice(0, 79)}…` : label,
    });
  });
  return { page, blocks, totalComponents: total, truncated: total > blocks.length };
}

export interface ActivityEntry {
  id: bigint;
  kind: string;
  userSimplyId: string | null;
  summary: string | null;
  revision: number | null;
  details: unknown;
  createdAt: Date;
}

/** The page's activity, newest first. */
export async function pageActivity(ctx: RequestContext, pageSimplyId: string, args: PageInput): Promise<Page<ActivityEntry>> {
  const paging = parsePaging(args, { defaultLimit: 25, maxLimit: 100 });
  const db = ctx.services.prisma;
  const { page } = await pageFor(ctx, db, pageSimplyId, 'VIEWER');
  const [nodes, counted] = await Promise.all([
    db.$queryRawUnsafe<ActivityEntry[]>(
      `SELECT a.id, a.kind, u."simplyId" AS "userSimplyId", a.summary, a.revision, a.details, a."createdAt"
         FROM "WebsitePageActivity" a LEFT JOIN "User" u ON u.id = a."userId"
        WHERE a."teamId" = $1 AND a."pageId" = $2 ORDER BY a.id DESC LIMIT $3 OFFSET $4`,
      page.teamId,
      page.id,
      paging.limit,
      paging.offset,
    ),
    db.$queryRawUnsafe<{ total: number }[]>(`SELECT count(*)::int AS total FROM "WebsitePageActivity" WHERE "teamId" = $1 AND "pageId" = $2`, page.teamId, page.id),
  ]);
  return { nodes, pagination: pagination(counted[0]?.total ?? 0, paging) };
}
