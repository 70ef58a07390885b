// What a widget visitor may do with their token (docs/api/conversations.md "The visitor's side"):
// list their own conversations of the widget, read them without the team's internal notes, start
// one and write in it. A conversation of anyone else, of another widget or of another team is 404,
// exactly like one that does not exist. The visitor's words are END_USER CHAT messages posted
// through the conversation's own post (messages.service.ts), always as TEXT: whatever HTML a
// visitor types is stored and shown as the characters they typed. Agents' HTML reaches the
// visitor as its text only (never markup).
//
// Only a verified visitor's email ties the conversation to a constituent record: an anonymous
// visitor can type anyone's address, and must not be able to join someone else's history.
import type pg from 'pg';
import type { RequestContext } from '../../app/context.ts';
import type { WidgetVisitorFacts } from '../../app/auth/principal.ts';
import { NotFoundError, ValidationError, WidgetVisitorTokenRequiredError } from '../../app/errors.ts';
import { randomSecret, userId as userIdKind } from '../../app/ids.ts';
import { requireTeam } from '../../app/require-team.ts';
import { inTransaction } from '../../app/transaction.ts';
import { parseInput } from '../../app/validate.ts';
import { ALL, actorOf } from './conversation-access.ts';
import { queueNotifications } from './conversation-notifications.ts';
import { publishConversationEvent } from './conversations.events.ts';
import { conversationId } from './conversations.ids.ts';
import { insertConversation, updateConversation, type ConversationRow } from './conversations.sql.ts';
import { afterConversationCreated } from './routing-hooks.ts';
import { postMessage, type MessageRow } from './messages.service.ts';
import { htmlText } from './message-content.ts';
import { activeMembers } from './people.sql.ts';
import { matchVisitor } from './record-link.ts';
import { THREAD } from './sql-helpers.ts';
import { publicWidget, type PublicWidget, type VisitorView } from './widget-tokens.service.ts';
import { startConversationInput, visitorMessageInput, WIDGET_LIMITS } from './widget.input.ts';

/** A conversation as its visitor sees it: no assignee, notes, record or agent fields. */
export interface VisitorConversation {
  conversationSimplyId: string;
  status: string;
  createdAt: Date;
  /** the latest message the visitor can see (not an internal note), or the creation time */
  lastMessageAt: Date;
}

/** A message as the visitor sees it: who wrote it by role, and its text. */
export interface VisitorMessage {
  messageSimplyId: string;
  conversationSimplyId: string;
  /** VISITOR (their own words), AGENT, AI or SYSTEM */
  author: string;
  text: string;
  createdAt: Date;
}

export function visitorFacts(ctx: RequestContext): WidgetVisitorFacts {
  const facts = ctx.principal.widgetVisitor;
  if (ctx.principal.kind !== 'WIDGET_VISITOR' || !facts) throw new WidgetVisitorTokenRequiredError();
  return facts;
}

export function visitorMessage(m: Pick<MessageRow, 'simplyId' | 'conversationSimplyId' | 'authorType' | 'content' | 'contentType' | 'createdAt'>): VisitorMessage {
  return {
    messageSimplyId: m.simplyId,
    conversationSimplyId: m.conversationSimplyId,
    author: m.authorType === 'END_USER' ? 'VISITOR' : m.authorType,
    // sanitized HTML of an agent still reaches the visitor as text: the widget never renders markup
    text: m.contentType === 'HTML' ? htmlText(m.content) : m.content,
    createdAt: m.createdAt,
  };
}

const VISIBLE_LAST = `COALESCE((SELECT max(m."createdAt") FROM "ConversationMessage" m
   WHERE m."teamId" = c."teamId" AND m."conversationId" = c.id AND m.channel <> 'INTERNAL_NOTE'), c."createdAt")`;

/** The visitor's own conversation of their widget, or 404. */
export async function visitorConversation(ctx: RequestContext, simplyId: string, db: pg.Pool | pg.PoolClient = ctx.services.pool): Promise<VisitorConversation & { id: bigint }> {
  const facts = visitorFacts(ctx);
  const team = requireTeam(ctx);
  conversationId.assert(simplyId, 'conversationSimplyId');
  const { rows } = await db.query(
    `SELECT c.id, c."simplyId" AS "conversationSimplyId", c.status, c."createdAt", ${VISIBLE_LAST} AS "lastMessageAt"
       FROM "ConversationWidgetThread" t JOIN "Conversation" c ON c."teamId" = t."teamId" AND c.id = t."conversationId"
      WHERE t."teamId" = $1 AND t."visitorId" = $2 AND t."widgetId" = $3 AND c."simplyId" = $4`,
    [team.id, facts.visitorId, facts.widgetId, simplyId],
  );
  if (!rows[0]) throw new NotFoundError('Conversation', simplyId);
  return { ...rows[0], id: BigInt(rows[0].id) };
}

/** widgetVisitorConversations: the visitor's own, most recent first (at most WIDGET_LIMITS.visitorConversations). */
export async function listVisitorConversations(ctx: RequestContext): Promise<VisitorConversation[]> {
  const facts = visitorFacts(ctx);
  const team = requireTeam(ctx);
  const { rows } = await ctx.services.pool.query(
    `SELECT c."simplyId" AS "conversationSimplyId", c.status, c."createdAt", ${VISIBLE_LAST} AS "lastMessageAt"
       FROM "ConversationWidgetThread" t JOIN "Conversation" c ON c."teamId" = t."teamId" AND c.id = t."conversationId"
      WHERE t."teamId" = $1 AND t."visitorId" = $2 AND t."widgetId" = $3
        -- a conversation merged into another the visitor sees reads there (merge.service.ts)
        AND (c."mergedIntoId" IS NULL OR NOT EXISTS (SELECT 1 FROM "ConversationWidgetThread" mt
              WHERE mt."teamId" = t."teamId" AND mt."visitorId" = t."visitorId" AND mt."conversationId" = c."mergedIntoId"))
      ORDER BY t."createdAt" DESC LIMIT $4`,
    [team.id, facts.visitorId, facts.widgetId, WIDGET_LIMITS.visitorConversations],
  );
  return rows;
}

/** widgetVisitorMessages: the newest `limit` messages of the thread (merged conversations included) the visitor may see, oldest first; internal notes never. */
export async function listVisitorMessages(ctx: RequestContext, simplyId: string, limit: number | null | undefined): Promise<VisitorMessage[]> {
  const team = requireTeam(ctx);
  const conversation = await visitorConversation(ctx, simplyId);
  const n = limit ?? 50;
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new ValidationError('Invalid paging parameters', [{ field: 'limit', message: 'must be 1-100' }]);
  const { rows } = await ctx.services.pool.query(
    `WITH RECURSIVE ${THREAD}
     SELECT * FROM (
       SELECT m."simplyId", $3::text AS "conversationSimplyId", m."authorType", m.content, m."contentType", m."createdAt", m.id
         FROM "ConversationMessage" m
        WHERE m."teamId" = $1 AND m."conversationId" IN (SELECT id FROM thread) AND m.channel <> 'INTERNAL_NOTE'
        ORDER BY m."createdAt" DESC, m.id DESC LIMIT $4) newest
      ORDER BY "createdAt", id`,
    [team.id, conversation.id, conversation.conversationSimplyId, n],
  );
  return rows.map(visitorMessage);
}

/** The widget's default assignee while they can still work conversations; otherwise none. */
async function defaultAssignee(ctx: RequestContext, db: pg.PoolClient, widgetId: bigint): Promise<{ id: bigint; simplyId: string } | null> {
  const team = requireTeam(ctx);
  const { rows } = await db.query(
    `SELECT u.id, u."simplyId" FROM "ConversationWidget" w JOIN "User" u ON u.id = w."defaultAssignedUserId" WHERE w."teamId" = $1 AND w.id = $2`,
    [team.id, widgetId],
  );
  if (!rows[0] || !userIdKind.is(rows[0].simplyId)) return null;
  const member = (await activeMembers(ctx.services.pool, team.id, [rows[0].simplyId])).get(rows[0].simplyId);
  const works = member && (member.isTeamAdmin || ['DATA_CONVERSATIONS_VIEW', 'DATA_CONVERSATION_INBOX_VIEW', 'DATA_CONVERSATION_INBOX_VIEW_ALL'].some((f) => member.features.has(f)));
  return works ? { id: BigInt(rows[0].id), simplyId: rows[0].simplyId } : null;
}

/**
 * A new CHAT conversation of the visitor, with the widget's default priority and assignee, tied to
 * the visitor in the same transaction (never a conversation the visitor cannot find). A simulated
 * visitor's conversation says so in its subject.
 */
export async function createVisitorConversation(ctx: RequestContext, details: { visitorName: string | null; visitorEmail: string | null }): Promise<ConversationRow> {
  const facts = visitorFacts(ctx);
  const team = requireTeam(ctx);
  const { rows } = await ctx.services.pool.query(
    `SELECT w."defaultPriority", v.name, v.email, v."isVerified" FROM "ConversationWidget" w JOIN "ConversationWidgetVisitor" v ON v."teamId" = w."teamId" AND v."widgetId" = w.id
      WHERE w."teamId" = $1 AND w.id = $2 AND v.id = $3`,
    [team.id, facts.widgetId, facts.visitorId],
  );
  if (!rows[0]) throw new NotFoundError('Widget', facts.widgetSimplyId);
  const known = rows[0] as { defaultPriority: string; name: string | null; email: string | null; isVerified: boolean };
  // a verified visitor is who the team's server said; what they type does not change it
  const visitorName = known.isVerified ? (known.name ?? details.visitorName) : (details.visitorName ?? known.name);
  const visitorEmail = known.isVerified ? (known.email ?? details.visitorEmail) : (details.visitorEmail ?? known.email);
  const link = known.isVerified && known.email ? await matchVisitor(ctx, known.email, null) : null;
  const actor = actorOf(ctx);
  return inTransaction(ctx.services.pool, async (db) => {
    let row = await insertConversation(db, {
      simplyId: conversationId.create(),
      teamId: team.id,
      subject: facts.isSimulated ? '[Simulated] widget preview' : null,
      channel: 'CHAT',
      priority: known.defaultPriority,
      visitorName,
      visitorEmail,
      visitorPhone: null,
      dataRecordId: link?.dataRecordId ?? null,
      dataRecordSimplyId: link?.dataRecordSimplyId ?? null,
      recordLinkSource: link?.source ?? null,
      replyToken: randomSecret(24),
      createdByKind: actor.kind,
      createdById: actor.id,
    });
    const assignee = await defaultAssignee(ctx, db, facts.widgetId);
    if (assignee) row = await updateConversation(db, team.id, row.id, { assignedUserId: assignee.id, assignedAt: new Date() });
    await db.query(`INSERT INTO "ConversationWidgetThread" ("teamId", "conversationId", "widgetId", "visitorId", "isSimulated") VALUES ($1, $2, $3, $4, $5)`, [
      team.id,
      row.id,
      facts.widgetId,
      facts.visitorId,
      facts.isSimulated,
    ]);
    // without the widget's own assignee it is routed like one created over the API; a preview never reaches an agent's queue
    if (!assignee && !facts.isSimulated) await afterConversationCreated(ctx.services, db, row);
    await publishConversationEvent(ctx.services, db, { teamSimplyId: team.simplyId, type: 'CONVERSATION_CREATED', conversationSimplyId: row.simplyId, actor, assignees: [assignee?.simplyId ?? null] });
    const base = { teamId: String(team.id), conversationId: String(row.id), messageId: null, actorUserId: null };
    await queueNotifications(ctx.services, db, { ...base, kind: 'NEW_CONVERSATION', key: row.simplyId, recipients: null });
    if (assignee) await queueNotifications(ctx.services, db, { ...base, kind: 'ASSIGNMENT', key: `${row.simplyId}:${row.assignedAt?.toISOString()}`, recipients: [assignee.simplyId] });
    return row;
  });
}

/** The visitor's words: an END_USER CHAT message, TEXT whatever it holds. */
async function postAsVisitor(ctx: RequestContext, conversationSimplyId: string, content: string): Promise<VisitorMessage> {
  const message = await postMessage(ctx, conversationSimplyId, { content, channel: 'CHAT', contentType: 'TEXT', authorType: 'END_USER' }, ALL);
  return visitorMessage(message);
}

/** startWidgetConversation: a new conversation with the visitor's first message. */
export async function startVisitorConversation(ctx: RequestContext, raw: unknown): Promise<{ conversation: VisitorConversation; message: VisitorMessage }> {
  visitorFacts(ctx);
  const input = parseInput(startConversationInput, raw, 'Invalid conversation');
  if (input.content.trim() === '') throw new ValidationError('Invalid conversation', [{ field: 'content', message: 'must not be blank' }]);
  const row = await createVisitorConversation(ctx, { visitorName: input.visitorName ?? null, visitorEmail: input.visitorEmail ?? null });
  const message = await postAsVisitor(ctx, row.simplyId, input.content);
  return { conversation: { conversationSimplyId: row.simplyId, status: 'OPEN', createdAt: row.createdAt, lastMessageAt: message.createdAt }, message };
}

/** postWidgetMessage: the visitor writes in one of their conversations (a finished one reopens, as any visitor message does). */
export async function postVisitorMessage(ctx: RequestContext, conversationSimplyId: string, raw: unknown): Promise<VisitorMessage> {
  const input = parseInput(visitorMessageInput, raw, 'Invalid message');
  const conversation = await visitorConversation(ctx, conversationSimplyId);
  return postAsVisitor(ctx, conversation.conversationSimplyId, input.content);
}

/** widgetVisitorSession: who the token is, and their widget as its page shows it. */
export async function visitorSession(ctx: RequestContext): Promise<{ visitor: VisitorView; widget: PublicWidget; expiresAt: Date | null }> {
  const facts = visitorFacts(ctx);
  const team = requireTeam(ctx);
  const { prisma } = ctx.services;
  const [v, w] = await Promise.all([
    prisma.conversationWidgetVisitor.findUnique({ where: { teamId_id: { teamId: team.id, id: facts.visitorId } } }),
    prisma.conversationWidget.findUnique({ where: { teamId_id: { teamId: team.id, id: facts.widgetId } } }),
  ]);
  if (!v || !w) throw new NotFoundError('Widget visitor', facts.visitorSimplyId);
  return {
    visitor: { visitorSimplyId: v.simplyId, isVerified: v.isVerified, isSimulated: v.isSimulated, name: v.name, email: v.email },
    widget: publicWidget(w),
    expiresAt: ctx.principal.expiresAt,
  };
}
