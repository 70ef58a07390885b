// The area's rows looked up by their public ids within the caller's team (another team's id reads
// as not found), and their stored JSON read back as the shapes the inputs were checked against.
import type { SpaceBookingChannel, SpaceBookingLink, SpaceSourceConnection } from '../../generated/prisma/client.ts';
import type { Services } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import type { AvailabilityPolicy, Mapping, Pricing } from './space-bookings.input.ts';
import { bookingChannelId, sourceConnectionId } from './space-bookings.ids.ts';
import { MappingNotConfiguredError } from './space-bookings.errors.ts';
import type { ChannelWithConnection } from './channel-cache.ts';

export interface ChannelConfig {
  spaceRecordSimplyIds: string[];
  availabilityPolicy: AvailabilityPolicy;
  pricing: Pricing;
  bookingWriteMapping: { initialStatus: 'PENDING_APPROVAL' | 'CONFIRMED' };
}

export interface LinkPolicy {
  allowAnonymousAvailability: boolean;
  outcomePolicy: { initialStatus: 'PENDING_APPROVAL' | 'CONFIRMED'; confirmationMessage?: string };
}

export type Connection = SpaceSourceConnection;
export type Channel = SpaceBookingChannel & { settings: ChannelConfig };
export type Link = SpaceBookingLink & { settings: LinkPolicy };

export async function findConnection(services: Services, teamId: bigint, simplyId: string): Promise<Connection> {
  sourceConnectionId.assert(simplyId, 'sourceConnectionSimplyId');
  const row = await services.prisma.spaceSourceConnection.findUnique({ where: { teamId_simplyId: { teamId, simplyId } } });
  if (!row) throw new NotFoundError('Source connection', simplyId);
  return row;
}

export function mappingOf(connection: Connection): Mapping {
  if (!connection.mapping) throw new MappingNotConfiguredError(connection.simplyId);
  return connection.mapping as unknown as Mapping;
}

export const asChannel = (row: SpaceBookingChannel): Channel => ({ ...row, settings: row.config as unknown as ChannelConfig });
export const asLink = (row: SpaceBookingLink): Link => ({ ...row, settings: row.policy as unknown as LinkPolicy });

/**
 * A channel of a connection of the team, with its connection: from a serving instance's memory
 * (channel-cache.ts), else one statement (no ORM in this hot path).
 */
export async function findChannelOf(services: Services, teamId: bigint, connectionSimplyId: string, channelSimplyId: string): Promise<ChannelWithConnection> {
  sourceConnectionId.assert(connectionSimplyId, 'sourceConnectionSimplyId');
  bookingChannelId.assert(channelSimplyId, 'bookingChannelSimplyId');
  const cache = services.spaceChannels;
  const cached = cache?.get(teamId, connectionSimplyId, channelSimplyId);
  if (cached) return cached;
  const generation = cache?.current ?? 0;
  const found = await readChannelOf(services, teamId, connectionSimplyId, channelSimplyId);
  cache?.put(found, generation);
  return found;
}

async function readChannelOf(services: Services, teamId: bigint, connectionSimplyId: string, channelSimplyId: string): Promise<ChannelWithConnection> {
  const { rows } = await services.pool.query<Record<string, string | null> & { config: unknown; mapping: unknown }>(
    `SELECT ch.id::text AS id, ch.name, ch.config, ch."connectionId"::text AS "connectionId",
            (extract(epoch FROM ch."createdAt") * 1000)::bigint::text AS "createdAt", (extract(epoch FROM ch."updatedAt") * 1000)::bigint::text AS "updatedAt",
            c.name AS "connectionName", c.mapping, (extract(epoch FROM c."createdAt") * 1000)::bigint::text AS "connectionCreatedAt",
            (extract(epoch FROM c."updatedAt") * 1000)::bigint::text AS "connectionUpdatedAt"
       FROM "SpaceBookingChannel" ch JOIN "SpaceSourceConnection" c ON c.id = ch."connectionId"
      WHERE ch."teamId" = $1 AND ch."simplyId" = $2 AND c."simplyId" = $3`,
    [teamId, channelSimplyId, connectionSimplyId],
  );
  const row = rows[0];
  if (!row) {
    // which of the two is missing: the connection first, as the path names it
    await findConnection(services, teamId, connectionSimplyId);
    throw new NotFoundError('Booking channel', channelSimplyId);
  }
  const at = (ms: string | null | undefined) => new Date(Number(ms));
  const connection: Connection = { id: BigInt(row.connectionId!), simplyId: connectionSimplyId, teamId, name: row.connectionName!, mapping: row.mapping as never, createdAt: at(row.connectionCreatedAt), updatedAt: at(row.connectionUpdatedAt) };
  const channel = asChannel({ id: BigInt(row.id!), simplyId: channelSimplyId, teamId, connectionId: connection.id, name: row.name!, config: row.config as never, createdAt: at(row.createdAt), updatedAt: at(row.updatedAt) });
  return { connection, channel };
}
