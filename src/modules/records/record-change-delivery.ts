// How a dataRecordChanges event is resolved for a group of subscribers who may see the same thing
// (src/app/pubsub/subscriber-hub.ts): the record row is read once per event whatever the number of
// groups, then shown as each group's permissions allow. A failure that says nothing about the
// caller (the database away) is thrown, so the event is tried again rather than sent without it.
import { hasDataAccess } from '../../app/auth/principal.ts';
import type { RequestContext } from '../../app/context.ts';
import { ApiError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { accessTo, collectionFor, findRecords, type RecordChangeEvent, type RecordRow, RecordView, requireRecordCredential } from '../../kernel/index.ts';

const SOURCE = Symbol('the event as received');
type Narrowed = RecordChangeEvent & { [SOURCE]?: RecordChangeEvent };

// event → its record row: shared by every group the event is resolved for, gone with the event
const rows = new WeakMap<RecordChangeEvent, Promise<RecordRow | undefined>>();

/** Whether the subscriber, as its credential is now, may read the collection. */
export async function mayReadCollection(ctx: RequestContext, collectionSimplyId: string): Promise<boolean> {
  try {
    await collectionFor(ctx, collectionSimplyId, 'READ');
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/** The event narrowed for one group, still pointing at the event as received (for the shared row). */
export function withSource(narrowed: RecordChangeEvent, source: RecordChangeEvent): RecordChangeEvent {
  return Object.assign(narrowed, { [SOURCE]: (source as Narrowed)[SOURCE] ?? source });
}

/** The changed record as the caller may see it now; null once deleted or when it may not be read. */
export async function recordOfChange(ctx: RequestContext, event: RecordChangeEvent): Promise<RecordView | null> {
  if (event.changeType === 'DELETED') return null;
  try {
    const team = requireTeam(ctx);
    requireRecordCredential(ctx.principal, 'READ');
    const [schema, row] = await Promise.all([ctx.services.schemas.get(team.id), sharedRow(ctx, team.id, (event as Narrowed)[SOURCE] ?? event)]);
    const collection = row && schema.collectionsById.get(row.collectionId);
    if (!row || !collection || !hasDataAccess(ctx.principal, collection.simplyId, 'READ')) return null;
    const access = accessTo(ctx.principal, schema, collection);
    return new RecordView(row, access);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

function sharedRow(ctx: RequestContext, teamId: bigint, event: RecordChangeEvent): Promise<RecordRow | undefined> {
  let row = rows.get(event);
  if (!row) {
    row = findRecords(ctx.services.pool, teamId, [event.dataRecordSimplyId]).then((found) => found[0]);
    // a failed read is not kept: the retry reads again
    row.catch(() => rows.delete(event));
    rows.set(event, row);
  }
  return row;
}
