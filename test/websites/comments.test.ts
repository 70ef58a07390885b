// Review comments: pinning, filters, the team-wide list, resolve and reopen, replies, who may
// delete, and the notifications commenting sends (WORKFLOW to editors, MENTION to the mentioned).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../support/expect-envelope.ts';
import { createTeam, startServerWithTeam, type TeamFixture } from '../support/fixtures.ts';
import type { TestServer } from '../support/server.ts';
import { adminOf, call, type Caller, createPage, createSite, memberWith } from './websites-fixtures.ts';

let server: TestServer;
let team: TeamFixture;
let admin: Caller;

beforeAll(async () => {
  ({ server, team } = await startServerWithTeam());
  admin = adminOf(team);
});
afterAll(() => server?.close());

const pin = (extra: Record<string, unknown> = {}) => ({ xPercent: 50, yPixels: 120, comment: 'Looks good', ...extra });
const notificationsOf = async (who: Caller) => expectOk(await call(server, who, 'GET', '/v1/notifications?limit=100')).notifications;

describe('review comments', () => {
  it('pins comments on a page, filters them, resolves, reopens and answers them', async () => {
    const site = await createSite(server, admin);
    const page = (await createPage(server, admin, site.websiteSimplyId)).pageSimplyId;
    expectOk(await call(server, admin, 'PATCH', `/v1/website-pages/${page}/design`, { operations: [{ op: 'insert', parentId: null, component: { tagName: 'h1', attributes: { id: 'title' } } }] }));
    const first = expectOk(await call(server, admin, 'POST', `/v1/website-pages/${page}/comments`, pin({ targetDevice: 'MOBILE', grapesComponentId: 'title' })), 201);
    expect(first).toMatchObject({ xPercent: 50, yPixels: 120, targetDevice: 'MOBILE', grapesComponentId: 'title', resolved: false, authorUserSimplyId: team.userSimplyId, replies: [] });
    const second = expectOk(await call(server, admin, 'POST', `/v1/website-pages/${page}/comments`, pin({ comment: 'Second' })), 201);

    const resolved = expectOk(await call(server, admin, 'POST', `/v1/website-comments/${first.commentSimplyId}/resolve`));
    expect(resolved).toMatchObject({ resolved: true, resolvedByUserSimplyId: team.userSimplyId });
    expect(expectOk(await call(server, admin, 'POST', `/v1/website-comments/${first.commentSimplyId}/resolve`)).resolvedAt).toBe(resolved.resolvedAt);
    expect(expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/comments?resolved=true`)).map((c: { commentSimplyId: string }) => c.commentSimplyId)).toEqual([first.commentSimplyId]);
    expect(expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/comments?resolved=false`)).map((c: { commentSimplyId: string }) => c.commentSimplyId)).toEqual([second.commentSimplyId]);
    expect(expectOk(await call(server, admin, 'POST', `/v1/website-comments/${first.commentSimplyId}/unresolve`))).toMatchObject({ resolved: false, resolvedAt: null });

    const reply = expectOk(await call(server, admin, 'POST', `/v1/website-comments/${first.commentSimplyId}/replies`, { comment: 'Fixed' }), 201);
    expect(reply).toMatchObject({ commentSimplyId: first.commentSimplyId, comment: 'Fixed' });
    const listed = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/comments`));
    expect(listed[0].replies.map((r: { replySimplyId: string }) => r.replySimplyId)).toEqual([reply.replySimplyId]);

    const team2 = await call(server, admin, 'GET', `/v1/website-comments?websiteSimplyId=${site.websiteSimplyId}&limit=1`);
    expect(expectOk(team2).map((c: { commentSimplyId: string }) => c.commentSimplyId)).toEqual([second.commentSimplyId]);
    expect(team2.body.meta.pagination).toMatchObject({ total: 2, hasMore: true });
    expect(expectOk(await call(server, admin, 'GET', '/v1/website-comments?resolved=false&limit=100')).some((c: { commentSimplyId: string }) => c.commentSimplyId === first.commentSimplyId)).toBe(true);
  });

  it('refuses bad pins, unknown components, and another team’s ids', async () => {
    const site = await createSite(server, admin);
    const page = (await createPage(server, admin, site.websiteSimplyId)).pageSimplyId;
    for (const [body, field] of [
      [pin({ xPercent: 101 }), 'xPercent'],
      [pin({ yPixels: -1 }), 'yPixels'],
      [pin({ comment: ' ' }), 'comment'],
      [pin({ targetDevice: 'WATCH' }), 'targetDevice'],
      [pin({ grapesComponentId: 'nowhere' }), 'grapesComponentId'],
      [{ xPercent: 1, yPixels: 1 }, 'comment'],
    ] as const) {
      expect(expectError(await call(server, admin, 'POST', `/v1/website-pages/${page}/comments`, body), 400, 'VALIDATION_ERROR').details?.[0]?.field).toBe(field);
    }
    const comment = expectOk(await call(server, admin, 'POST', `/v1/website-pages/${page}/comments`, pin()), 201);
    const stranger = adminOf(await createTeam(server));
    expectError(await call(server, stranger, 'POST', `/v1/website-comments/${comment.commentSimplyId}/resolve`), 404, 'NOT_FOUND');
    expectError(await call(server, stranger, 'GET', `/v1/website-comments?websiteSimplyId=${site.websiteSimplyId}`), 404, 'NOT_FOUND');
    expect(expectOk(await call(server, stranger, 'GET', '/v1/website-comments'))).toEqual([]);
  });

  it('lets reviewers comment, the author or an owner delete, and viewers only read', async () => {
    const site = await createSite(server, admin);
    const page = (await createPage(server, admin, site.websiteSimplyId)).pageSimplyId;
    const reviewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    const viewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    const editor = await memberWith(server, team, ['TEAM_WEBSITES']);
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { members: [{ userSimplyId: reviewer.userSimplyId, role: 'REVIEWER' }] }));
    expectError(await call(server, viewer, 'POST', `/v1/website-pages/${page}/comments`, pin()), 403, 'WEBSITE_ROLE_REQUIRED');
    expectOk(await call(server, viewer, 'GET', `/v1/website-pages/${page}/comments`));
    const mine = expectOk(await call(server, reviewer, 'POST', `/v1/website-pages/${page}/comments`, pin()), 201);
    const reply = expectOk(await call(server, editor, 'POST', `/v1/website-comments/${mine.commentSimplyId}/replies`, { comment: 'ok' }), 201);
    expectError(await call(server, reviewer, 'DELETE', `/v1/website-comment-replies/${reply.replySimplyId}`), 403, 'WEBSITE_ROLE_REQUIRED');
    expectError(await call(server, editor, 'DELETE', `/v1/website-comments/${mine.commentSimplyId}`), 403, 'WEBSITE_ROLE_REQUIRED');
    expectOk(await call(server, editor, 'DELETE', `/v1/website-comment-replies/${reply.replySimplyId}`));
    expectError(await call(server, editor, 'DELETE', `/v1/website-comment-replies/${reply.replySimplyId}`), 404, 'NOT_FOUND');
    expectOk(await call(server, reviewer, 'DELETE', `/v1/website-comments/${mine.commentSimplyId}`));
    const another = expectOk(await call(server, reviewer, 'POST', `/v1/website-pages/${page}/comments`, pin()), 201);
    expectOk(await call(server, admin, 'DELETE', `/v1/website-comments/${another.commentSimplyId}`));
    expect(expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/comments`))).toEqual([]);
  });

  it('tells the page’s editors of a comment, and the mentioned people with a mention', async () => {
    const site = await createSite(server, admin);
    const editor = await memberWith(server, team, ['TEAM_WEBSITES']);
    const page = (await createPage(server, editor, site.websiteSimplyId)).pageSimplyId;
    const mentioned = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    const reviewer = await memberWith(server, team, ['TEAM_WEBSITES:VIEW']);
    expectOk(await call(server, admin, 'PUT', `/v1/websites/${site.websiteSimplyId}`, { members: [{ userSimplyId: reviewer.userSimplyId, role: 'REVIEWER' }] }));
    const comment = expectOk(await call(server, reviewer, 'POST', `/v1/website-pages/${page}/comments`, pin({ comment: `Please check, @${mentioned.userSimplyId}` })), 201);
    const forEditor = (await notificationsOf(editor)).filter((n: { referenceEntityId: string }) => n.referenceEntityId === comment.commentSimplyId);
    expect(forEditor.map((n: { notificationType: string }) => n.notificationType)).toEqual(['WORKFLOW']);
    const forMentioned = (await notificationsOf(mentioned)).filter((n: { referenceEntityId: string }) => n.referenceEntityId === comment.commentSimplyId);
    expect(forMentioned.map((n: { notificationType: string }) => n.notificationType)).toEqual(['MENTION']);
    expect((await notificationsOf(reviewer)).filter((n: { referenceEntityId: string }) => n.referenceEntityId === comment.commentSimplyId)).toEqual([]);
    // a reply tells the comment's author
    expectOk(await call(server, editor, 'POST', `/v1/website-comments/${comment.commentSimplyId}/replies`, { comment: 'On it' }), 201);
    expect((await notificationsOf(reviewer)).some((n: { referenceEntityId: string; notificationType: string }) => n.referenceEntityId === comment.commentSimplyId && n.notificationType === 'WORKFLOW')).toBe(true);
    const activity = expectOk(await call(server, admin, 'GET', `/v1/website-pages/${page}/activity`));
    expect(activity[0]).toMatchObject({ kind: 'COMMENTED', userSimplyId: reviewer.userSimplyId });
  });
});
