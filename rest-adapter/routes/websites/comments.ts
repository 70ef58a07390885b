// Review comments → src/modules/websites/comments.schema.ts (docs/api/websites.md "Review comments").
import { z } from 'zod';
import { operation, PAGINATION } from '../../../src/app/graphql/fragments.ts';
import { createCommentInput, replyInput } from '../../../src/modules/websites/comments.input.ts';
import { WEBSITE_COMMENT, WEBSITE_COMMENT_REPLY } from '../../../src/modules/websites/websites.fragments.ts';
import { respond, route } from '../../route.ts';
import { actOn, updateOne } from '../../route-shapes.ts';
import { queryBool, queryInt } from '../../schemas.ts';

const COMMENT = '/v1/website-comments/{commentSimplyId}';

export const websiteCommentRoutes = [
  route({
    method: 'GET',
    path: '/v1/website-pages/{pageSimplyId}/comments',
    summary: 'List a page’s comments',
    description: 'Oldest first, with replies; resolved filters (VIEWER; websites:read)',
    operation: operation`query WebsitePageComments($id: String!, $resolved: Boolean) { websitePageComments(pageSimplyId: $id, resolved: $resolved) { ${WEBSITE_COMMENT} } }`,
    query: z.strictObject({ resolved: queryBool().describe('true: resolved only; false: open only') }),
    variables: ({ params, query }) => ({ id: params.pageSimplyId, ...(query as object) }),
  }),
  updateOne({
    method: 'POST',
    path: '/v1/website-pages/{pageSimplyId}/comments',
    summary: 'Comment on a page',
    description: '{ xPercent (0-100), yPixels, comment, targetDevice? (DESKTOP, TABLET, MOBILE), grapesComponentId? (a component of the draft) }; tells the page’s editors, and people @usr-… mentioned (REVIEWER; websites:write)',
    name: 'CreateWebsiteComment',
    inputType: 'JSON',
    body: createCommentInput,
    example: { xPercent: 42.5, yPixels: 380, comment: 'Could this say “spring” instead? @usr-AB23-CD45-EF67', targetDevice: 'DESKTOP', grapesComponentId: 'hero-title' },
    select: WEBSITE_COMMENT,
    status: 201,
  }),
  route({
    method: 'GET',
    path: '/v1/website-comments',
    summary: 'List review comments',
    description: 'Comments on the websites the caller has a role on, newest first; resolved, websiteSimplyId, limit 1-100 (default 25), offset (websites:read)',
    operation: operation([`query WebsiteComments($resolved: Boolean, $websiteSimplyId: String, $limit: Int, $offset: Int) { websiteComments(resolved: $resolved, websiteSimplyId: $websiteSimplyId, limit: $limit, offset: $offset) { nodes { `, ' } pagination { ', ' } } }'], WEBSITE_COMMENT, PAGINATION),
    query: z.strictObject({
      resolved: queryBool().describe('true: resolved only; false: open only'),
      websiteSimplyId: z.string().max(40).optional().describe('one website'),
      limit: queryInt().describe('1-100, default 25'),
      offset: queryInt().describe('0 or more'),
    }),
    variables: ({ query }) => query as Record<string, unknown>,
    respond: respond.page,
  }),
  actOn({ method: 'POST', path: `${COMMENT}/resolve`, summary: 'Resolve a comment', description: 'Resolving a resolved comment changes nothing (REVIEWER; websites:write)', name: 'ResolveWebsiteComment', select: WEBSITE_COMMENT }),
  actOn({ method: 'POST', path: `${COMMENT}/unresolve`, summary: 'Reopen a comment', description: '(REVIEWER; websites:write)', name: 'UnresolveWebsiteComment', select: WEBSITE_COMMENT }),
  updateOne({
    method: 'POST',
    path: `${COMMENT}/replies`,
    summary: 'Reply to a comment',
    description: '{ comment }; tells the thread’s people and the page’s editors (REVIEWER; websites:write)',
    name: 'CreateWebsiteCommentReply',
    inputType: 'JSON',
    body: replyInput,
    example: { comment: 'Done, thanks!' },
    select: WEBSITE_COMMENT_REPLY,
    status: 201,
  }),
  actOn({ method: 'DELETE', path: COMMENT, summary: 'Delete a comment', description: 'With its replies (its author, or OWNER; websites:write)', name: 'DeleteWebsiteComment' }),
  actOn({ method: 'DELETE', path: '/v1/website-comment-replies/{replySimplyId}', summary: 'Delete a comment reply', description: '(its author, or OWNER; websites:write)', name: 'DeleteWebsiteCommentReply' }),
];
