// Review comments on pages (docs/api/websites.md "Review comments"): pinned at a point of a page
// (xPercent across, yPixels down, on a device, optionally on a component), resolved and reopened,
// answered by replies. Commenting tells the page's editors (WORKFLOW notifications) and the people
// @mentioned (MENTION notifications), in the transaction that writes the comment.
import type { RequestContext } from '../../app/context.ts';
import { ApiError, NotFoundError, ValidationError } from '../../app/errors.ts';
import { pagination, parsePaging, type Page, type PageInput } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { runTransaction, type Tx } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import type { Website, WebsiteComment, WebsiteCommentReply, WebsitePage } from '../../generated/prisma/client.ts';
import { notify } from '../notifications/index.ts';
import { componentIdOf, type DesignDocument, walkComponents } from './design-document.ts';
import { recordActivity } from './page-activity.ts';
import { pageFor, siteFor } from './website-access.ts';
import { effectiveRole, type WebsiteRole, atLeast } from './website-roles.ts';
import { userSimplyIds } from './website-people.ts';
import { websiteCommentId, websiteCommentReplyId, websiteId } from './websites.ids.ts';
import { COMMENT_LIMITS, createCommentInput, replyInput } from './comments.input.ts';

/** `@usr-XXXX-XXXX-XXXX` in a comment names a person to tell */
const MENTION = /@(usr-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})\b/g;

export class CommentAuthorRequiredError extends ApiError {
  constructor(what: string) {
    super(403, 'WEBSITE_ROLE_REQUIRED', `Only its author or an OWNER of the website may delete this ${what}`, { details: [{ field: 'role', message: 'needs OWNER, or to be the author' }] });
  }
}

export interface CommentView {
  comment: WebsiteComment;
  pageSimplyId: string;
  websiteSimplyId: string;
  authorSimplyId: string | null;
  resolvedBySimplyId: string | null;
  replies: ReplyView[];
}

export interface ReplyView {
  reply: WebsiteCommentReply;
  commentSimplyId: string;
  authorSimplyId: string | null;
}

/** Comments with their replies, the people named by simplyId, in two reads whatever their number. */
async function views(db: Pick<Tx, 'websiteCommentReply' | '$queryRawUnsafe'>, rows: (WebsiteComment & { pageSimplyId: string; websiteSimplyId: string })[]): Promise<CommentView[]> {
  const replies = rows.length ? await db.websiteCommentReply.findMany({ where: { teamId: rows[0]!.teamId, commentId: { in: rows.map((r) => r.id) } }, orderBy: { id: 'asc' } }) : [];
  const users = await userSimplyIds(db, [...rows.flatMap((r) => [r.authorUserId, r.resolvedByUserId]), ...replies.map((r) => r.authorUserId)]);
  const name = (id: bigint | null) => (id === null ? null : (users.get(id) ?? null));
  return rows.map(({ pageSimplyId, websiteSimplyId, ...comment }) => ({
    comment: comment as WebsiteComment,
    pageSimplyId,
    websiteSimplyId,
    authorSimplyId: name(comment.authorUserId),
    resolvedBySimplyId: name(comment.resolvedByUserId),
    replies: replies.filter((r) => r.commentId === comment.id).map((reply) => ({ reply, commentSimplyId: comment.simplyId, authorSimplyId: name(reply.authorUserId) })),
  }));
}

const withIds = (page: WebsitePage, site: Website) => (c: WebsiteComment) => ({ ...c, pageSimplyId: page.simplyId, websiteSimplyId: site.simplyId });

export async function listPageComments(ctx: RequestContext, pageSimplyId: string, resolved: boolean | null | undefined): Promise<CommentView[]> {
  const db = ctx.services.prisma;
  const { page, site } = await pageFor(ctx, db, pageSimplyId, 'VIEWER');
  const rows = await db.websiteComment.findMany({ where: { teamId: page.teamId, pageId: page.id, ...(typeof resolved === 'boolean' ? { resolved } : {}) }, orderBy: { id: 'asc' }, take: 1000 });
  return views(db, rows.map(withIds(page, site)));
}

/**
 * GET /v1/website-comments: comments on the sites the caller has a role on, newest first;
 * `websiteSimplyId` narrows to one site (404 when the caller cannot see it).
 */
export async function listTeamComments(ctx: RequestContext, args: PageInput & { resolved?: boolean | null; websiteSimplyId?: string | null }): Promise<Page<CommentView>> {
  const paging = parsePaging(args);
  const db = ctx.services.prisma;
  const team = requireTeam(ctx);
  let siteIds: bigint[];
  if (args.websiteSimplyId) {
    websiteId.assert(args.websiteSimplyId, 'websiteSimplyId');
    siteIds = [(await siteFor(ctx, db, args.websiteSimplyId, 'VIEWER')).site.id];
  } else {
    const sites = await db.website.findMany({ where: { teamId: team.id }, select: { id: true, restricted: true } });
    const member = ctx.principal.userId === null ? [] : await db.websiteMember.findMany({ where: { teamId: team.id, userId: ctx.principal.userId }, select: { websiteId: true, role: true } });
    const roleAt = new Map(member.map((m) => [m.websiteId, m.role as WebsiteRole]));
    siteIds = sites.filter((s) => effectiveRole(ctx.principal, s, roleAt.get(s.id) ?? null) !== null).map((s) => s.id);
  }
  const where = { teamId: team.id, websiteId: { in: siteIds }, ...(typeof args.resolved === 'boolean' ? { resolved: args.resolved } : {}) };
  const [rows, total] = await Promise.all([
    db.websiteComment.findMany({ where, orderBy: { id: 'desc' }, skip: paging.offset, take: paging.limit, include: { page: { select: { simplyId: true, website: { select: { simplyId: true } } } } } }),
    db.websiteComment.count({ where }),
  ]);
  const flat = rows.map(({ page, ...c }) => ({ ...c, pageSimplyId: page.simplyId, websiteSimplyId: page.website.simplyId }));
  return { nodes: await views(db, flat), pagination: pagination(total, paging) };
}

/** Who hears of a comment on `page`: its editors (the site's OWNER and EDITOR members, and whoever edited the page), and the people mentioned. */
async function tellPeople(ctx: RequestContext, tx: Tx, site: Website, page: WebsitePage, text: string, what: { commentSimplyId: string; eventSimplyId: string; also?: bigint[] }): Promise<void> {
  const author = ctx.principal.userId;
  const mentioned = [...new Set([...text.matchAll(MENTION)].map((m) => m[1]!))].slice(0, COMMENT_LIMITS.mentions);
  const mentionedUsers = mentioned.length
    ? await tx.$queryRawUnsafe<{ id: bigint }[]>(
        `SELECT u.id FROM "User" u JOIN "TeamMembership" tm ON tm."userId" = u.id AND tm."teamId" = $1 AND tm."isActive" WHERE u."simplyId" = ANY($2::text[])`,
        site.teamId,
        mentioned,
      )
    : [];
  const members = await tx.websiteMember.findMany({ where: { teamId: site.teamId, websiteId: site.id, role: { in: ['OWNER', 'EDITOR'] } }, select: { userId: true } });
  const editors = await tx.websitePageActivity.findMany({ where: { teamId: site.teamId, pageId: page.id, kind: { in: ['CREATED', 'EDITED'] }, userId: { not: null } }, select: { userId: true }, distinct: ['userId'] });
  const mention = new Set(mentionedUsers.map((u) => u.id));
  const workflow = new Set([...members.map((m) => m.userId), ...editors.map((e) => e.userId!), ...(what.also ?? [])].filter((id) => !mention.has(id)));
  const base = {
    teamId: site.teamId,
    body: text.length > 200 ? `${text.slice(0, 199)}…` : text,
    referenceEntityType: 'WEBSITE_COMMENT',
    referenceEntityId: what.commentSimplyId,
    source: 'websites',
  };
  // a notification's source id is unique in the team: one per comment or reply and person
  const sourceId = (userId: bigint) => `${what.eventSimplyId}:${userId}`;
  for (const userId of mention) if (userId !== author) await notify(ctx.services, tx, { ...base, userId, sourceId: sourceId(userId), notificationType: 'MENTION', title: `You were mentioned on the page “${page.title}”` });
  for (const userId of workflow) if (userId !== author) await notify(ctx.services, tx, { ...base, userId, sourceId: sourceId(userId), notificationType: 'WORKFLOW', title: `New comment on the page “${page.title}”` });
}

export async function createComment(ctx: RequestContext, pageSimplyId: string, raw: unknown): Promise<CommentView> {
  const input = parseInput(createCommentInput, raw, 'Invalid comment');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { page, site } = await pageFor(ctx, tx, pageSimplyId, 'REVIEWER');
    if (input.grapesComponentId !== undefined) {
      let found = false;
      walkComponents((page.draftDesign as unknown as DesignDocument).components, (c) => (found ||= componentIdOf(c) === input.grapesComponentId));
      if (!found) throw new ValidationError('Invalid comment', [{ field: 'grapesComponentId', message: `the page's draft has no component ${input.grapesComponentId}` }]);
    }
    const comment = await tx.websiteComment.create({
      data: { simplyId: websiteCommentId.create(), teamId: page.teamId, websiteId: site.id, pageId: page.id, authorUserId: ctx.principal.userId, xPercent: input.xPercent, yPixels: input.yPixels, comment: input.comment, targetDevice: input.targetDevice ?? null, grapesComponentId: input.grapesComponentId ?? null },
    });
    await recordActivity(tx, page, 'COMMENTED', { userId: ctx.principal.userId, summary: input.comment.slice(0, 200), revision: page.draftRevision, details: { commentSimplyId: comment.simplyId } });
    await tellPeople(ctx, tx, site, page, input.comment, { commentSimplyId: comment.simplyId, eventSimplyId: comment.simplyId });
    return (await views(tx, [withIds(page, site)(comment)]))[0]!;
  });
}

/** The comment and its page, with the caller's role on the site reaching `needed` (404 when the site is not theirs to see). */
async function commentFor(ctx: RequestContext, tx: Tx, simplyId: string, needed: WebsiteRole) {
  websiteCommentId.assert(simplyId, 'commentSimplyId');
  const team = requireTeam(ctx);
  const found = await tx.websiteComment.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } }, include: { page: { select: { simplyId: true } } } });
  if (!found) throw new NotFoundError('Website comment', simplyId);
  try {
    const { page, site, role } = await pageFor(ctx, tx, found.page.simplyId, needed);
    await tx.$queryRawUnsafe('SELECT 1 FROM "WebsiteComment" WHERE "teamId" = $1 AND id = $2 FOR UPDATE', found.teamId, found.id);
    const comment = await tx.websiteComment.findUniqueOrThrow({ where: { id: found.id, teamId: found.teamId } });
    return { comment, page, site, role };
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError('Website comment', simplyId);
    throw error;
  }
}

export async function setResolved(ctx: RequestContext, simplyId: string, resolved: boolean): Promise<CommentView> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { comment, page, site } = await commentFor(ctx, tx, simplyId, 'REVIEWER');
    // resolving a resolved comment (or reopening an open one) is no change: the first resolver stays
    const updated =
      comment.resolved === resolved
        ? comment
        : await tx.websiteComment.update({
            where: { id: comment.id, teamId: comment.teamId },
            data: resolved ? { resolved: true, resolvedAt: new Date(), resolvedByUserId: ctx.principal.userId } : { resolved: false, resolvedAt: null, resolvedByUserId: null },
          });
    return (await views(tx, [withIds(page, site)(updated)]))[0]!;
  });
}

export async function createReply(ctx: RequestContext, simplyId: string, raw: unknown): Promise<ReplyView> {
  const input = parseInput(replyInput, raw, 'Invalid reply');
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { comment, page, site } = await commentFor(ctx, tx, simplyId, 'REVIEWER');
    const reply = await tx.websiteCommentReply.create({ data: { simplyId: websiteCommentReplyId.create(), teamId: comment.teamId, commentId: comment.id, authorUserId: ctx.principal.userId, comment: input.comment } });
    // the thread's people hear of the reply too
    const thread = await tx.websiteCommentReply.findMany({ where: { teamId: comment.teamId, commentId: comment.id, authorUserId: { not: null } }, select: { authorUserId: true }, distinct: ['authorUserId'] });
    await tellPeople(ctx, tx, site, page, input.comment, { commentSimplyId: comment.simplyId, eventSimplyId: reply.simplyId, also: [...(comment.authorUserId ? [comment.authorUserId] : []), ...thread.map((t) => t.authorUserId!)] });
    const users = await userSimplyIds(tx, [ctx.principal.userId]);
    return { reply, commentSimplyId: comment.simplyId, authorSimplyId: ctx.principal.userId === null ? null : (users.get(ctx.principal.userId) ?? null) };
  });
}

export async function deleteComment(ctx: RequestContext, simplyId: string): Promise<boolean> {
  return runTransaction(ctx.services.prisma, async (tx) => {
    const { comment, role } = await commentFor(ctx, tx, simplyId, 'REVIEWER');
    if (comment.authorUserId !== ctx.principal.userId && !atLeast(role, 'OWNER')) throw new CommentAuthorRequiredError('comment');
    await tx.websiteComment.delete({ where: { id: comment.id, teamId: comment.teamId } });
    return true;
  });
}

export async function deleteReply(ctx: RequestContext, simplyId: string): Promise<boolean> {
  websiteCommentReplyId.assert(simplyId, 'replySimplyId');
  const team = requireTeam(ctx);
  return runTransaction(ctx.services.prisma, async (tx) => {
    const reply = await tx.websiteCommentReply.findUnique({ where: { teamId_simplyId: { teamId: team.id, simplyId } }, include: { parent: { select: { simplyId: true } } } });
    if (!reply) throw new NotFoundError('Website comment reply', simplyId);
    let role: WebsiteRole;
    try {
      ({ role } = await commentFor(ctx, tx, reply.parent.simplyId, 'REVIEWER'));
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError('Website comment reply', simplyId);
      throw error;
    }
    if (reply.authorUserId !== ctx.principal.userId && !atLeast(role, 'OWNER')) throw new CommentAuthorRequiredError('reply');
    const deleted = await tx.websiteCommentReply.deleteMany({ where: { id: reply.id, teamId: reply.teamId } });
    if (deleted.count === 0) throw new NotFoundError('Website comment reply', simplyId);
    return true;
  });
}
