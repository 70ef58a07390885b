// Space bookings: a team publishes rooms, courts or desks from its own collections through booking
// channels and links; availability, slots and quotes follow one rule engine in the channel's time
// zone, and bookings are records of the mapped collection (docs/api/space-bookings.md).
import { defineModule } from '../../app/module.ts';
import { releaseDeletedBookings } from './booking-claims.consumer.ts';
import { bookingPageEndpoints } from './booking-page.ts';
import { bookingTimeGuard } from './booking-time-guard.ts';
import { ChannelCache } from './channel-cache.ts';
import { ChannelWriteQueue } from './channel-write-queue.ts';
import { spaceBookingsConfig } from './space-bookings.config.ts';
import { bookingChannelId, bookingLinkId, sourceConnectionId } from './space-bookings.ids.ts';
import * as schema from './space-bookings.schema.ts';

export const spaceBookingsModule = defineModule({
  name: 'space-bookings',
  description: 'Space bookings: source connections mapping collections to spaces and bookings, booking channels and public links, availability, slots, quotes and bookings without double booking.',
  schema: { schema },
  config: spaceBookingsConfig,
  ids: [sourceConnectionId, bookingChannelId, bookingLinkId],
  // booking records written by any other face claim their time too (booking-time-guard.ts)
  services: (services) => ({ recordWriteGuard: bookingTimeGuard(services), spaceWriteQueue: new ChannelWriteQueue() }),
  httpEndpoints: (services) => bookingPageEndpoints(services),
  outboxConsumers: () => ({ 'space-bookings': releaseDeletedBookings }),
  // a server keeps the channels its booking requests read in memory, dropped when they change (channel-cache.ts)
  onListening: (services) => {
    const cache = new ChannelCache(services);
    services.spaceChannels = cache;
    cache.start().catch((err: unknown) => services.logger.warn({ err }, 'booking channels are not kept in memory'));
  },
});
