// A member's assistant sessions: their own only. Another member's session, or one of another team,
// is answered exactly as one that does not exist.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { pagination, parsePaging, type PageInput, type PaginationShape } from '../../app/paging.ts';
import { requireAssistant } from './team-assistant.access.ts';
import { assistantSessionId } from './team-assistant.ids.ts';
import { messageView, sessionView, type MessageView, type SessionView } from './assistant-views.ts';

export interface SessionPage {
  nodes: SessionView[];
  pagination: PaginationShape;
}

/** The caller's sessions, most recently active first. */
export async function listSessions(ctx: RequestContext, input: PageInput): Promise<SessionPage> {
  const { teamId, userId } = requireAssistant(ctx);
  const paging = parsePaging(input);
  const where = { teamId, userId };
  const [rows, total] = await Promise.all([
    ctx.services.prisma.assistantSession.findMany({ where, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], skip: paging.offset, take: paging.limit }),
    ctx.services.prisma.assistantSession.count({ where }),
  ]);
  return { nodes: rows.map(sessionView), pagination: pagination(total, paging) };
}

/** One of the caller's sessions (ACTIVE or ARCHIVED) as a row. */
export async function ownSession(ctx: RequestContext, simplyId: string) {
  const { teamId, userId } = requireAssistant(ctx);
  assistantSessionId.assert(simplyId, 'sessionSimplyId');
  const session = await ctx.services.prisma.assistantSession.findUnique({ where: { teamId_simplyId: { teamId, simplyId } } });
  if (!session || session.userId !== userId) throw new NotFoundError('Assistant session', simplyId);
  return session;
}

export interface SessionWithMessages {
  session: SessionView;
  messages: MessageView[];
}

/** A session and its messages, oldest first, each assistant message with the caller's feedback. */
export async function getSession(ctx: RequestContext, simplyId: string): Promise<SessionWithMessages> {
  const session = await ownSession(ctx, simplyId);
  const { prisma } = ctx.services;
  const messages = await prisma.assistantMessage.findMany({ where: { teamId: session.teamId, sessionId: session.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: 500 });
  const feedback = await prisma.assistantFeedback.findMany({ where: { teamId: session.teamId, userId: session.userId, messageId: { in: messages.map((m) => m.id) } } });
  const byMessage = new Map(feedback.map((f) => [f.messageId, f]));
  return { session: sessionView(session), messages: messages.map((m) => messageView(m, session.simplyId, byMessage.get(m.id) ?? null)) };
}

/** ARCHIVED: kept and readable, but no new message can be sent to it. Archiving twice is harmless. */
export async function archiveSession(ctx: RequestContext, simplyId: string): Promise<SessionView> {
  const session = await ownSession(ctx, simplyId);
  if (session.status === 'ARCHIVED') return sessionView(session);
  const archived = await ctx.services.prisma.assistantSession.update({
    where: { teamId_simplyId: { teamId: session.teamId, simplyId } },
    data: { status: 'ARCHIVED', archivedAt: new Date() },
  });
  return sessionView(archived);
}
