// GraphQL face of space bookings. REST: rest-adapter/routes/space-bookings.ts. Source-connection
// fields take the spaces app's OAuth tokens only (tier.svcSpaces; connection setup also a signed-in
// team admin, tier.svcSpacesSetup); the booking-link fields are public and check the link's token
// and audience themselves. Bodies arrive as JSON and are checked by the services, so both faces
// answer the same SVC_SPACES_BOOKING_REQUEST_INVALID details. Booking answers are JSON shaped as
// docs/api/space-bookings.md describes.
import { tier } from '../../app/auth/tiers.ts';
import { builder } from '../../app/builder.ts';
import {
  connectionAvailability,
  connectionPatch,
  connectionQuote,
  connectionRun,
  linkAvailability,
  linkQuote,
  linkRun,
  linkSlotGrid,
  linkSlots,
} from './booking-routes.service.ts';
import { listChannels, provisionChannel } from './channels.service.ts';
import { createConnection, getConnection, listConnections, type MappedConnection, setMapping, snapshot } from './connections.service.ts';
import { subscribeToBookingEvents } from './webhook-subscriptions.service.ts';

const ConnectionRef = builder.objectRef<MappedConnection>('SvcSpacesSourceConnection').implement({
  description: "A source connection: the team's own collections mapped into the booking model",
  fields: (t) => ({
    id: t.string({ resolve: (c) => c.simplyId }),
    sourceConnectionSimplyId: t.string({ resolve: (c) => c.simplyId }),
    name: t.string({ resolve: (c) => c.name }),
    mapping: t.field({ type: 'JSON', nullable: true, description: '{ spaces, bookings, people? } by field simplyIds; null until configured', resolve: (c) => c.mapping as never }),
    isConfigured: t.boolean({ resolve: (c) => c.mapping !== null }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (c) => c.updatedAt }),
    existingBookings: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Only in the answers that set a mapping: { claimed, overlapping, overlappingTotal }, the bookings the collection already held that now hold their time, and those that overlap an earlier one (at most 100 named)',
      resolve: (c) => (c.existingBookings ?? null) as never,
    }),
  }),
});

type Fields = Parameters<Parameters<typeof builder.mutationFields>[0]>[0];
const input = (t: Fields) => t.arg({ type: 'JSON', required: true, description: 'the body, as the REST route takes it' });
const id = (t: Fields, description?: string) => t.arg.string({ required: true, description });

builder.queryFields((t) => ({
  svcSpacesSourceConnections: t.field({
    type: [ConnectionRef],
    description: "The team's source connections, newest first (SVC_SPACES_VIEW or SVC_SPACES_MANAGE)",
    authScopes: tier.svcSpacesSetup,
    resolve: (_root, _args, ctx) => listConnections(ctx),
  }),
  svcSpacesSourceConnection: t.field({
    type: ConnectionRef,
    description: 'One source connection with its mapping',
    authScopes: tier.svcSpacesSetup,
    args: { sourceConnectionSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getConnection(ctx, args.sourceConnectionSimplyId),
  }),
  svcSpacesSnapshot: t.field({
    type: 'JSON',
    description: 'The mapped model: mapping, the spaces the caller may read, the channels; SVC_SPACES_MAPPING_NOT_CONFIGURED until a mapping exists',
    authScopes: tier.svcSpaces,
    args: { sourceConnectionSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => snapshot(ctx, args.sourceConnectionSimplyId) as never,
  }),
  svcSpacesBookingChannels: t.field({
    type: 'JSON',
    description: "{ bookingChannels, validation }: the connection's channels with their links (no tokens), each checked against the current schema",
    authScopes: tier.svcSpaces,
    args: { sourceConnectionSimplyId: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => listChannels(ctx, args.sourceConnectionSimplyId) as never,
  }),
}));

builder.mutationFields((t) => ({
  createSvcSpacesSourceConnection: t.field({
    type: ConnectionRef,
    description: 'Creates a source connection: { name, mapping? } (SVC_SPACES_MANAGE)',
    authScopes: tier.svcSpacesSetup,
    args: { input: input(t) },
    resolve: (_root, args, ctx) => createConnection(ctx, args.input),
  }),
  setSvcSpacesSourceConnectionMapping: t.field({
    type: ConnectionRef,
    description: "Replaces a connection's mapping: { mapping } checked against the team's collections (SVC_SPACES_MANAGE)",
    authScopes: tier.svcSpacesSetup,
    args: { sourceConnectionSimplyId: id(t), input: input(t) },
    resolve: (_root, args, ctx) => setMapping(ctx, args.sourceConnectionSimplyId, args.input),
  }),
  provisionSvcSpacesBookingChannel: t.field({
    type: 'JSON',
    description: '{ bookingChannel, wizardDiagnostics, publicAccessTokens, validation }; raw link tokens appear only here (SVC_SPACES_MANAGE)',
    authScopes: tier.svcSpaces,
    args: { sourceConnectionSimplyId: id(t), input: input(t) },
    resolve: (_root, args, ctx) => provisionChannel(ctx, args.sourceConnectionSimplyId, args.input) as never,
  }),
  svcSpacesBookingAvailability: t.field({
    type: 'JSON',
    description: 'Availability of the channel\'s spaces for { bookingChannelSimplyId, startsAt, endsAt, spaceRecordSimplyIds? }, with conflicts',
    authScopes: tier.svcSpaces,
    args: { sourceConnectionSimplyId: id(t), input: input(t) },
    resolve: (_root, args, ctx) => connectionAvailability(ctx, args.sourceConnectionSimplyId, args.input) as never,
  }),
  svcSpacesBookingQuote: t.field({
    type: 'JSON',
    description: 'A quote in minor units with every rule\'s diagnostics',
    authScopes: tier.svcSpaces,
    args: { sourceConnectionSimplyId: id(t), input: input(t) },
    resolve: (_root, args, ctx) => connectionQuote(ctx, args.sourceConnectionSimplyId, args.input) as never,
  }),
  svcSpacesBookingRun: t.field({
    type: 'JSON',
    description: 'Books: the record is created with the caller\'s permissions, after the final check under the channel\'s lock',
    authScopes: tier.svcSpaces,
    args: { sourceConnectionSimplyId: id(t), input: input(t) },
    resolve: (_root, args, ctx) => connectionRun(ctx, args.sourceConnectionSimplyId, args.input) as never,
  }),
  updateSvcSpacesBooking: t.field({
    type: 'JSON',
    description: 'EDIT, CANCEL, APPROVE or DENY a booking: { action, bookingChannelSimplyId, … }',
    authScopes: tier.svcSpaces,
    args: { sourceConnectionSimplyId: id(t), bookingRecordSimplyId: id(t), input: input(t) },
    resolve: (_root, args, ctx) => connectionPatch(ctx, args.sourceConnectionSimplyId, args.bookingRecordSimplyId, args.input) as never,
  }),
  createSvcSpacesWebhookSubscriptions: t.field({
    type: 'JSON',
    description: '{ secret, subscriptions }: the four record event types of the mapped collections, to the connection\'s receiver (SVC_SPACES_MANAGE)',
    authScopes: tier.svcSpaces,
    args: { sourceConnectionSimplyId: id(t), input: input(t) },
    resolve: (_root, args, ctx) => subscribeToBookingEvents(ctx, args.sourceConnectionSimplyId, args.input) as never,
  }),
}));

// ---------------------------------------------------------------------------------------------
// Public booking links: the token, never an Authorization header (a constituent's session token
// there is the verification, not the link's credential)

const publicArgs = (t: Fields) => ({
  bookingLinkSimplyId: id(t),
  publicAccessToken: t.arg.string({ description: "the link's public token (REST: X-SVC-Public-Token, x-booking-public-token, ?publicAccessToken= or the body)" }),
  input: input(t),
});

builder.mutationFields((t) => ({
  svcSpacesLinkAvailability: t.field({
    type: 'JSON',
    description: 'Availability through a booking link (conflict details suppressed)',
    authScopes: tier.publicLink,
    args: publicArgs(t),
    resolve: (_root, args, ctx) => linkAvailability(ctx, args) as never,
  }),
  svcSpacesLinkSlots: t.field({
    type: 'JSON',
    description: 'Bookable slots through a booking link, each candidate rechecked by the rules',
    authScopes: tier.publicLink,
    args: publicArgs(t),
    resolve: (_root, args, ctx) => linkSlots(ctx, args) as never,
  }),
  svcSpacesLinkSlotGrid: t.field({
    type: 'JSON',
    description: "A day-by-day slot grid in the channel's time zone",
    authScopes: tier.publicLink,
    args: publicArgs(t),
    resolve: (_root, args, ctx) => linkSlotGrid(ctx, args) as never,
  }),
  svcSpacesLinkQuote: t.field({
    type: 'JSON',
    description: 'A quote through a booking link',
    authScopes: tier.publicLink,
    args: publicArgs(t),
    resolve: (_root, args, ctx) => linkQuote(ctx, args) as never,
  }),
  svcSpacesLinkRun: t.field({
    type: 'JSON',
    description: 'Books through a link: only with a verified constituent session (the hosted booking flow); anonymous calls are refused',
    authScopes: tier.publicLink,
    args: publicArgs(t),
    resolve: (_root, args, ctx) => linkRun(ctx, args) as never,
  }),
}));
