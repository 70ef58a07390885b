// Publishing and review of one page (docs/api/websites.md "Publishing and review"):
//
//   action               role      from review state          to        effect
//   publish              EDITOR    any                        NONE      the published design becomes the draft; a PUBLISHED version is kept
//   submit-for-review    EDITOR    NONE, CHANGES_REQUESTED    IN_REVIEW
//   request-changes      REVIEWER  IN_REVIEW                  CHANGES_REQUESTED  (optional message)
//
// Publishing a page puts it on the site's published pages; the site itself is live only once it is
// published (PUT isPublished, site-publishing.service.ts). Each action locks the page's row.
import type { RequestContext } from '../../app/context.ts';
import { ApiError } from '../../app/errors.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { WebsitePage } from '../../generated/prisma/client.ts';
import { recordActivity } from './page-activity.ts';
import { takeVersion } from './page-versions.service.ts';
import { pageFor } from './website-access.ts';
import { publishInput, requestChangesInput } from './publishing.input.ts';
import type { WebsiteRole } from './website-roles.ts';

export class ReviewStateError extends ApiError {
  constructor(action: string, state: string, allowed: string[]) {
    super(409, 'WEBSITE_PAGE_REVIEW_STATE', `A page ${state === 'NONE' ? 'not under review' : `in review state ${state}`} cannot be ${action}; it must be ${allowed.join(' or ')}`, {
      details: [{ field: 'reviewState', message: `is ${state}` }],
    });
  }
}

/** The page's row locked for the transaction, read fresh, with the caller's role reaching `needed`. */
async function lockedPage(ctx: RequestContext, tx: Tx, pageSimplyId: string, needed: WebsiteRole): Promise<WebsitePage> {
  return (await pageFor(ctx, tx, pageSimplyId, needed, { lockPage: true })).page;
}

export async function publishPage(ctx: RequestContext, pageSimplyId: string, raw: unknown): Promise<WebsitePage> {
  const input = parseInput(publishInput, raw ?? {}, 'Invalid publish');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const page = await lockedPage(ctx, tx, pageSimplyId, 'EDITOR');
    const version = await takeVersion(tx, page, 'PUBLISHED', ctx.principal.userId, { note: input.summary });
    const published = await tx.websitePage.update({
      where: { id: page.id, teamId: page.teamId },
      data: { publishedDesign: page.draftDesign as never, publishedRevision: page.draftRevision, publishedAt: new Date(), reviewState: 'NONE' },
    });
    await recordActivity(tx, page, 'PUBLISHED', { userId: ctx.principal.userId, summary: input.summary ?? null, revision: page.draftRevision, details: { versionSimplyId: version.simplyId } });
    return published;
  });
}

export async function submitForReview(ctx: RequestContext, pageSimplyId: string): Promise<WebsitePage> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const page = await lockedPage(ctx, tx, pageSimplyId, 'EDITOR');
    if (page.reviewState === 'IN_REVIEW') throw new ReviewStateError('submitted for review', page.reviewState, ['NONE', 'CHANGES_REQUESTED']);
    const updated = await tx.websitePage.update({ where: { id: page.id, teamId: page.teamId }, data: { reviewState: 'IN_REVIEW' } });
    await recordActivity(tx, page, 'SUBMITTED_FOR_REVIEW', { userId: ctx.principal.userId, revision: page.draftRevision });
    return updated;
  });
}

export async function requestChanges(ctx: RequestContext, pageSimplyId: string, raw: unknown): Promise<WebsitePage> {
  const input = parseInput(requestChangesInput, raw ?? {}, 'Invalid request for changes');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const page = await lockedPage(ctx, tx, pageSimplyId, 'REVIEWER');
    if (page.reviewState !== 'IN_REVIEW') throw new ReviewStateError('sent back with changes requested', page.reviewState, ['IN_REVIEW']);
    const updated = await tx.websitePage.update({ where: { id: page.id, teamId: page.teamId }, data: { reviewState: 'CHANGES_REQUESTED' } });
    await recordActivity(tx, page, 'CHANGES_REQUESTED', { userId: ctx.principal.userId, summary: input.message ?? null, revision: page.draftRevision });
    return updated;
  });
}
