// The booking channels (with their connections) a serving instance has read, so a booking request
// reads only the claims: a burst of runs on one channel would otherwise read the same channel row
// once per request. A trigger NOTIFYs the team's id on the commit of any change or removal of a
// channel or connection (prisma/migrations/…_space_channel_notify), and every instance drops that
// team's entries. While the listening connection is down nothing is kept, a read that raced with a
// change is not kept (generation check), and an entry lives MAX_AGE_MS at most.
import type { Services } from '../../app/context.ts';
import type { Channel, Connection } from './space-bookings.store.ts';

export const CHANNELS_CHANNEL = 'svc_space_channels';
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 5_000;

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

export class ChannelCache {
  private readonly entries = new Map<string, { value: ChannelWithConnection; expiresAt: number }>();
  private generation = 0;
  private listening = false;
  private readonly services: Services;

  constructor(services: Services) {
    this.services = services;
  }

  async start(): Promise<void> {
    const { notifier } = this.services;
    notifier.onDisconnect(() => this.clear());
    notifier.onReconnect(() => this.clear());
    await notifier.listen(CHANNELS_CHANNEL, (teamId) => this.teamChanged(teamId));
    this.listening = true;
  }

  /** the generation to hand back to `put` */
  get current(): number {
    return this.generation;
  }

  get(teamId: bigint, connectionSimplyId: string, channelSimplyId: string): ChannelWithConnection | null {
    const key = `${teamId}/${connectionSimplyId}/${channelSimplyId}`;
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= Date.now() || !this.usable) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  put(value: ChannelWithConnection, generation: number): void {
    if (!this.usable || generation !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(`${value.channel.teamId}/${value.connection.simplyId}/${value.channel.simplyId}`, { value, expiresAt: Date.now() + MAX_AGE_MS });
  }

  private get usable(): boolean {
    return this.listening && this.services.notifier.connected;
  }

  private teamChanged(teamId: string): void {
    this.generation++;
    const prefix = `${teamId}/`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
