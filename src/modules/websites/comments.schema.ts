// GraphQL face of review comments. REST: rest-adapter/routes/websites/comments.ts. The websites
// tier; VIEWER reads, REVIEWER comments, resolves and replies; the author or an OWNER deletes.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import { pageType } from '../../app/graphql/page.ts';
import { type CommentView, createComment, createReply, deleteComment, deleteReply, listPageComments, listTeamComments, type ReplyView, setResolved } from './comments.service.ts';
import { TARGET_DEVICES } from './comments.input.ts';

const read = tier.websites('websites:read');
const write = tier.websites('websites:write');

const DeviceEnum = builder.enumType('WebsiteCommentDevice', { values: TARGET_DEVICES });

const ReplyRef = builder.objectRef<ReplyView>('WebsiteCommentReply').implement({
  fields: (t) => ({
    id: t.string({ resolve: (r) => r.reply.simplyId }),
    replySimplyId: t.string({ resolve: (r) => r.reply.simplyId }),
    commentSimplyId: t.exposeString('commentSimplyId'),
    comment: t.string({ resolve: (r) => r.reply.comment }),
    authorUserSimplyId: t.string({ nullable: true, resolve: (r) => r.authorSimplyId }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.reply.createdAt }),
  }),
});

const CommentRef = builder.objectRef<CommentView>('WebsiteComment').implement({
  description: 'A review comment pinned on a page',
  fields: (t) => ({
    id: t.string({ resolve: (c) => c.comment.simplyId }),
    commentSimplyId: t.string({ resolve: (c) => c.comment.simplyId }),
    pageSimplyId: t.exposeString('pageSimplyId'),
    websiteSimplyId: t.exposeString('websiteSimplyId'),
    xPercent: t.float({ description: 'across the page, 0-100', resolve: (c) => c.comment.xPercent }),
    yPixels: t.int({ description: 'down the page', resolve: (c) => c.comment.yPixels }),
    comment: t.string({ resolve: (c) => c.comment.comment }),
    targetDevice: t.field({ type: DeviceEnum, nullable: true, resolve: (c) => c.comment.targetDevice as never }),
    grapesComponentId: t.string({ nullable: true, resolve: (c) => c.comment.grapesComponentId }),
    resolved: t.boolean({ resolve: (c) => c.comment.resolved }),
    resolvedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.comment.resolvedAt }),
    resolvedByUserSimplyId: t.string({ nullable: true, resolve: (c) => c.resolvedBySimplyId }),
    authorUserSimplyId: t.string({ nullable: true, resolve: (c) => c.authorSimplyId }),
    replies: t.field({ type: [ReplyRef], description: 'oldest first', resolve: (c) => c.replies }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.comment.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.comment.updatedAt }),
  }),
});
const CommentPageRef = pageType('WebsiteCommentPage', CommentRef);

builder.queryFields((t) => ({
  websitePageComments: t.field({
    type: [CommentRef],
    description: 'The page’s comments, oldest first, with their replies (at most 1,000)',
    authScopes: read,
    args: { pageSimplyId: t.arg.string({ required: true }), resolved: t.arg.boolean() },
    resolve: (_r, a, ctx) => listPageComments(ctx, a.pageSimplyId, a.resolved),
  }),
  websiteComments: t.field({
    type: CommentPageRef,
    description: 'Comments on the websites the caller has a role on, newest first',
    authScopes: read,
    args: { resolved: t.arg.boolean(), websiteSimplyId: t.arg.string(), limit: t.arg.int(), offset: t.arg.int() },
    resolve: (_r, a, ctx) => listTeamComments(ctx, a),
  }),
}));

builder.mutationFields((t) => ({
  createWebsiteComment: t.field({ type: CommentRef, authScopes: write, args: { pageSimplyId: t.arg.string({ required: true }), input: t.arg({ type: 'JSON', required: true }) }, resolve: (_r, a, ctx) => createComment(ctx, a.pageSimplyId, a.input) }),
  resolveWebsiteComment: t.field({ type: CommentRef, authScopes: write, args: { commentSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => setResolved(ctx, a.commentSimplyId, true) }),
  unresolveWebsiteComment: t.field({ type: CommentRef, authScopes: write, args: { commentSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => setResolved(ctx, a.commentSimplyId, false) }),
  createWebsiteCommentReply: t.field({ type: ReplyRef, authScopes: write, args: { commentSimplyId: t.arg.string({ required: true }), input: t.arg({ type: 'JSON', required: true }) }, resolve: (_r, a, ctx) => createReply(ctx, a.commentSimplyId, a.input) }),
  deleteWebsiteComment: t.boolean({ description: 'The comment and its replies (its author, or OWNER)', authScopes: write, args: { commentSimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => deleteComment(ctx, a.commentSimplyId) }),
  deleteWebsiteCommentReply: t.boolean({ description: 'One reply (its author, or OWNER)', authScopes: write, args: { replySimplyId: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => deleteReply(ctx, a.replySimplyId) }),
}));
