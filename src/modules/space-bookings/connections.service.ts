// Source connections: created with a name (and optionally the mapping), listed, read, given a
// mapping, and the snapshot of the mapped model. The mapping is checked against the team's schema.
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { inTransaction } from '../../app/transaction.ts';
import { listRecords, type TeamSchema } from '../../kernel/index.ts';
import { claimExistingBookings, type ExistingBookings } from './existing-bookings.ts';
import { checkMapping } from './mapping.ts';
import { createConnectionInput, type Mapping, mappingBody, parseBody } from './space-bookings.input.ts';
import { requireSpacesManage, requireSpacesView } from './space-bookings.access.ts';
import { BookingRequestInvalidError } from './space-bookings.errors.ts';
import { sourceConnectionId } from './space-bookings.ids.ts';
import { type Connection, findConnection, mappingOf } from './space-bookings.store.ts';
import { readSpaces } from './spaces.reader.ts';

/** how many spaces a snapshot lists (a team's rooms, courts or desks, not its whole database) */
export const SNAPSHOT_SPACES = 500;

async function validMapping(ctx: RequestContext, mapping: Mapping): Promise<TeamSchema> {
  const schema = await ctx.services.schemas.get(requireTeam(ctx).id);
  const problems = checkMapping(schema, mapping);
  if (problems.length > 0) throw new BookingRequestInvalidError(`The mapping does not fit the team's collections: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, problems);
  return schema;
}

/** A connection as its create and mapping answers show it: with what became of the bookings its collection already held. */
export type MappedConnection = Connection & { existingBookings?: ExistingBookings };

/** After the mapping's commit (the guard of new writes hears of it by then): the bookings already there claim their time. */
async function withExistingBookings(ctx: RequestContext, schema: TeamSchema, connection: Connection, mapping: Mapping): Promise<MappedConnection> {
  const collection = schema.collectionsBySimplyId.get(mapping.bookings.dataCollectionSimplyId)!;
  const existingBookings = await inTransaction(ctx.services.pool, (db) => claimExistingBookings(db, connection.teamId, collection.id, schema.fieldsOf(collection), mapping.bookings));
  return { ...connection, existingBookings };
}

export async function createConnection(ctx: RequestContext, input: unknown): Promise<MappedConnection> {
  requireSpacesManage(ctx);
  const team = requireTeam(ctx);
  const { name, mapping } = parseBody(createConnectionInput, input);
  const schema = mapping ? await validMapping(ctx, mapping) : null;
  const connection = await ctx.services.prisma.spaceSourceConnection.create({
    data: { simplyId: sourceConnectionId.create(), teamId: team.id, name, mapping: (mapping ?? undefined) as never },
  });
  return schema && mapping ? withExistingBookings(ctx, schema, connection, mapping) : connection;
}

export async function listConnections(ctx: RequestContext): Promise<Connection[]> {
  requireSpacesView(ctx);
  return ctx.services.prisma.spaceSourceConnection.findMany({ where: { teamId: requireTeam(ctx).id }, orderBy: { id: 'desc' }, take: 200 });
}

export async function getConnection(ctx: RequestContext, simplyId: string): Promise<Connection> {
  requireSpacesView(ctx);
  return findConnection(ctx.services, requireTeam(ctx).id, simplyId);
}

export async function setMapping(ctx: RequestContext, simplyId: string, input: unknown): Promise<MappedConnection> {
  requireSpacesManage(ctx);
  const connection = await findConnection(ctx.services, requireTeam(ctx).id, simplyId);
  const { mapping } = parseBody(mappingBody, input);
  const schema = await validMapping(ctx, mapping);
  const updated = await ctx.services.prisma.spaceSourceConnection.update({ where: { id: connection.id }, data: { mapping: mapping as never } });
  return withExistingBookings(ctx, schema, updated, mapping);
}

/** The mapped model: the mapping, the spaces the caller may read, and the channels built on it. */
export async function snapshot(ctx: RequestContext, simplyId: string) {
  requireSpacesView(ctx);
  const team = requireTeam(ctx);
  const connection = await findConnection(ctx.services, team.id, simplyId);
  const mapping = mappingOf(connection);
  // the caller's own read: the snapshot shows what its credential may read, nothing more
  const page = await listRecords(ctx, { dataCollectionSimplyId: mapping.spaces.dataCollectionSimplyId, limit: 100 });
  const schema = await ctx.services.schemas.get(team.id);
  const ids = page.nodes.map((n) => n.dataRecordSimplyId);
  const spaces = await readSpaces(ctx.services, schema, mapping, ids.slice(0, SNAPSHOT_SPACES));
  const channels = await ctx.services.prisma.spaceBookingChannel.findMany({ where: { connectionId: connection.id }, orderBy: { id: 'asc' }, select: { simplyId: true, name: true } });
  return {
    sourceConnectionSimplyId: connection.simplyId,
    name: connection.name,
    mapping,
    spaces,
    totalSpaces: page.pagination.total,
    bookingCollectionSimplyId: mapping.bookings.dataCollectionSimplyId,
    peopleCollectionSimplyId: mapping.people?.dataCollectionSimplyId ?? null,
    bookingChannels: channels.map((c) => ({ bookingChannelSimplyId: c.simplyId, name: c.name })),
    generatedAt: new Date().toISOString(),
  };
}
