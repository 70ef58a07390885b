// Canned responses (docs/api/conversations.md "Canned responses"): the team's CANNED_RESPONSE
// content templates, listed for the composer (any inbox reach) and used on a conversation: the
// template's text with its merge tags filled from the conversation's linked record — only the
// fields the caller may read, and none when they may not read the record (tags then render empty,
// never a value the caller could not see otherwise). Using one counts it; with `post: true` the
// text is also posted to the conversation as the caller's message.
import { hasDataAccess } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { parsePaging, type Page } from '../../app/paging.ts';
import { requireTeam } from '../../app/require-team.ts';
import { parseInput } from '../../app/validate.ts';
import { accessTo, findRecords } from '../../kernel/index.ts';
import { cannedResponsePage, contentTemplateId, findCannedResponse, type CannedResponseRow } from '../content-templates/index.ts';
import { renderTemplate, type MergeField, type MergeRecord } from '../merge-tags/index.ts';
import { inboxVisibility } from './conversation-access.ts';
import { visibleConversation } from './conversations.service.ts';
import type { ConversationRow } from './conversations.sql.ts';
import { postMessage, type MessageRow } from './messages.service.ts';
import { listCannedInput, useCannedInput } from './routing.input.ts';

export interface CannedResponseView extends CannedResponseRow {
  useCount: number;
  lastUsedAt: Date | null;
}

async function withUses(ctx: RequestContext, teamId: bigint, rows: CannedResponseRow[]): Promise<CannedResponseView[]> {
  const { rows: uses } = await ctx.services.pool.query(
    `SELECT "contentTemplateSimplyId", "useCount", "lastUsedAt" FROM "ConversationCannedResponseUse" WHERE "teamId" = $1 AND "contentTemplateSimplyId" = ANY($2::text[])`,
    [teamId, rows.map((r) => r.simplyId)],
  );
  const bySimplyId = new Map(uses.map((u) => [u.contentTemplateSimplyId as string, u]));
  return rows.map((r) => ({ ...r, useCount: bySimplyId.get(r.simplyId)?.useCount ?? 0, lastUsedAt: bySimplyId.get(r.simplyId)?.lastUsedAt ?? null }));
}

/** GET /canned-responses?q&limit&offset: by name; q searches name and text. */
export async function listCannedResponses(ctx: RequestContext, raw: unknown): Promise<Page<CannedResponseView>> {
  const team = requireTeam(ctx);
  inboxVisibility(ctx, 'VIEW');
  const input = parseInput(listCannedInput, raw, 'Invalid canned response list parameters');
  const paging = parsePaging(input, { defaultLimit: 25, maxLimit: 100 });
  const { rows, total } = await cannedResponsePage(ctx.services.pool, team.id, input.q?.trim() || null, paging.limit, paging.offset);
  return { nodes: await withUses(ctx, team.id, rows), pagination: { total, limit: paging.limit, offset: paging.offset, hasMore: paging.offset + rows.length < total } };
}

/** The linked record and the fields the caller may read of it, or null (none linked, or not readable). */
async function mergeSource(ctx: RequestContext, c: ConversationRow): Promise<{ fields: MergeField[]; record: MergeRecord } | null> {
  const p = ctx.principal;
  if (c.dataRecordSimplyId === null) return null;
  if (!p.data && !p.isTeamAdmin && !p.isSystemAdmin) return null;
  if (p.scopes !== null && !p.scopes.has('records:read')) return null;
  const [schema, [row]] = await Promise.all([ctx.services.schemas.get(c.teamId), findRecords(ctx.services.pool, c.teamId, [c.dataRecordSimplyId])]);
  const collection = row && schema.collectionsById.get(row.collectionId);
  if (!row || !collection || !hasDataAccess(p, collection.simplyId, 'READ')) return null;
  return { fields: accessTo(p, schema, collection).readable, record: { simplyId: row.simplyId, calculatedName: row.calculatedName, values: row.values } };
}

export interface CannedUse {
  cannedResponseSimplyId: string;
  conversationSimplyId: string;
  text: string;
  /** whether merge tags were filled from the linked record (false: none linked, or the caller may not read it) */
  recordUsed: boolean;
  useCount: number;
  message: MessageRow | null;
}

/** POST /canned-responses/{id}/use { conversationSimplyId, post?, channel? }. */
export async function useCannedResponse(ctx: RequestContext, simplyId: string, raw: unknown): Promise<CannedUse> {
  const team = requireTeam(ctx);
  contentTemplateId.assert(simplyId, 'cannedResponseSimplyId');
  const input = parseInput(useCannedInput, raw, 'Invalid canned response use');
  const visibility = inboxVisibility(ctx, 'EDIT');
  const template = await findCannedResponse(ctx.services.pool, team.id, simplyId);
  if (!template) throw new NotFoundError('Canned response', simplyId);
  const conversation = await visibleConversation(ctx, input.conversationSimplyId, visibility);
  const source = await mergeSource(ctx, conversation);
  const text = renderTemplate(template.textContent ?? '', { fields: source?.fields ?? [], record: source?.record ?? null }, { maxLength: 20_000 });
  const message = input.post ? await postMessage(ctx, conversation.simplyId, { content: text, ...(input.channel ? { channel: input.channel } : {}) }, visibility) : null;
  const { rows } = await ctx.services.pool.query(
    `INSERT INTO "ConversationCannedResponseUse" ("teamId", "contentTemplateSimplyId", "useCount", "lastUsedAt") VALUES ($1, $2, 1, now())
     ON CONFLICT ("teamId", "contentTemplateSimplyId") DO UPDATE SET "useCount" = "ConversationCannedResponseUse"."useCount" + 1, "lastUsedAt" = now()
     RETURNING "useCount"`,
    [team.id, simplyId],
  );
  return { cannedResponseSimplyId: simplyId, conversationSimplyId: conversation.simplyId, text, recordUsed: source !== null, useCount: rows[0].useCount, message };
}
