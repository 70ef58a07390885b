// The booking channels (with their connections) a serving instance has read, so a booking request
// reads only the claims: a burst of runs on one channel would otherwise read the same channel row
// once per request. A trigger NOTIFYs the team's id on the commit of any change or removal of a
// channel or connection (prisma/migrations/…_space_channel_notify), and every instance drops that
// team's entries (src/app/pubsub/notified-cache.ts).
import type { Services } from '../../app/context.ts';
import { NotifiedCache } from '../../app/pubsub/notified-cache.ts';
import type { Channel, Connection } from './space-bookings.store.ts';

export const CHANNELS_CHANNEL = 'svc_space_channels';

export interface ChannelWithConnection {
  connection: Connection;
  channel: Channel;
}

declare module '../../app/context.ts' {
  interface Services {
    /** booking channels kept in memory by serving instances (channel-cache.ts) */
    spaceChannels?: ChannelCache;
  }
}

const keyOf = (teamId: bigint, connectionSimplyId: string, channelSimplyId: string) => `${teamId}/${connectionSimplyId}/${channelSimplyId}`;

export class ChannelCache {
  private readonly cache: NotifiedCache<ChannelWithConnection>;

  constructor(services: Services) {
    this.cache = new NotifiedCache(services.notifier, { channel: CHANNELS_CHANNEL, maxAgeMs: 60_000, maxEntries: 5_000 });
  }

  start(): Promise<void> {
    return this.cache.start();
  }

  /** the generation to hand back to `put` */
  get current(): number {
    return this.cache.current;
  }

  get(teamId: bigint, connectionSimplyId: string, channelSimplyId: string): ChannelWithConnection | null {
    return this.cache.get(keyOf(teamId, connectionSimplyId, channelSimplyId));
  }

  put(value: ChannelWithConnection, generation: number): void {
    const teamId = value.channel.teamId;
    this.cache.put(String(teamId), keyOf(teamId, value.connection.simplyId, value.channel.simplyId), value, generation);
  }
}
