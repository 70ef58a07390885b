// The record a conversation belongs to (the constituent), through the data kernel and the
// constituent sign-in's contact match; never the record tables themselves.
//
// - Named by the caller (create's dataRecordSimplyId, the by-record lists): the record must be one
//   the caller may read (records:read and a team role, else 403; its collection's READ permission,
//   else 404 as if it did not exist).
// - Otherwise matched: the visitor's email, then phone, against the team's person collections the
//   way constituent sign-in matches an address (the oldest live record holding it).
import { hasDataAccess } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { assertDataSimplyId } from '../../app/ids.ts';
import { requireTeam } from '../../app/require-team.ts';
import { findRecords, requireRecordCredential } from '../../kernel/index.ts';
import { matchContact, matchContactPhone } from '../constituent-auth/index.ts';
import type { ConversationRow } from './conversations.sql.ts';

export type RecordLinkSource = 'GIVEN' | 'EMAIL' | 'PHONE';

export interface RecordLink {
  dataRecordId: bigint;
  dataRecordSimplyId: string;
  source: RecordLinkSource;
}

export interface ReadableRecord {
  id: bigint;
  simplyId: string;
  dataCollectionSimplyId: string;
  name: string;
}

/** The record the caller names, if they may read it: 403 without records:read or a team role, 404 when missing or unreadable. */
export async function readableRecord(ctx: RequestContext, simplyId: string, field = 'dataRecordSimplyId'): Promise<ReadableRecord> {
  const team = requireTeam(ctx);
  assertDataSimplyId(simplyId, field);
  requireRecordCredential(ctx.principal, 'READ');
  const [schema, [row]] = await Promise.all([ctx.services.schemas.get(team.id), findRecords(ctx.services.pool, team.id, [simplyId])]);
  const collection = row && schema.collectionsById.get(row.collectionId);
  if (!row || !collection || !hasDataAccess(ctx.principal, collection.simplyId, 'READ')) throw new NotFoundError('Data record', simplyId);
  return { id: row.id, simplyId: row.simplyId, dataCollectionSimplyId: collection.simplyId, name: row.calculatedName };
}

/** The constituent the visitor's email (first) or phone names in the team, or null. */
export async function matchVisitor(ctx: RequestContext, email: string | null, phone: string | null): Promise<RecordLink | null> {
  if (email === null && phone === null) return null;
  const team = requireTeam(ctx);
  const schema = await ctx.services.schemas.get(team.id);
  if (email !== null) {
    const matched = await matchContact(ctx.services.pool, team.id, schema, email);
    if (matched) return { dataRecordId: matched.recordId, dataRecordSimplyId: matched.recordSimplyId, source: 'EMAIL' };
  }
  if (phone !== null) {
    const matched = await matchContactPhone(ctx.services.pool, team.id, schema, phone);
    if (matched) return { dataRecordId: matched.recordId, dataRecordSimplyId: matched.recordSimplyId, source: 'PHONE' };
  }
  return null;
}

export interface LinkedRecordSummary {
  dataRecordSimplyId: string;
  linkSource: string | null;
  /** whether the caller may read the record; when not, only its id is shown */
  readable: boolean;
  dataCollectionSimplyId: string | null;
  name: string | null;
  isArchived: boolean | null;
}

/** The linked record as the caller may see it (its name and collection only when readable), or null when none is linked. */
export async function linkedRecordSummary(ctx: RequestContext, conversation: ConversationRow): Promise<LinkedRecordSummary | null> {
  if (conversation.dataRecordSimplyId === null) return null;
  const hidden: LinkedRecordSummary = { dataRecordSimplyId: conversation.dataRecordSimplyId, linkSource: conversation.recordLinkSource, readable: false, dataCollectionSimplyId: null, name: null, isArchived: null };
  const p = ctx.principal;
  if (!p.data && !p.isTeamAdmin && !p.isSystemAdmin) return hidden;
  if (p.scopes !== null && !p.scopes.has('records:read')) return hidden;
  const team = requireTeam(ctx);
  const [schema, [row]] = await Promise.all([ctx.services.schemas.get(team.id), findRecords(ctx.services.pool, team.id, [conversation.dataRecordSimplyId])]);
  const collection = row && schema.collectionsById.get(row.collectionId);
  if (!row || !collection || !hasDataAccess(p, collection.simplyId, 'READ')) return hidden;
  return { ...hidden, readable: true, dataCollectionSimplyId: collection.simplyId, name: row.calculatedName, isArchived: row.isArchived };
}
