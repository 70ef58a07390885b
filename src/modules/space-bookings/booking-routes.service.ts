// The booking routes of both faces as services: each resolves its scope (a channel of the caller's
// source connection, or a booking link opened with its token), checks the body, and asks the
// evaluation or the writes. The GraphQL resolvers (space-bookings.schema.ts) only call these.
import type { RequestContext } from '../../app/context.ts';
import { NotFoundError } from '../../app/errors.ts';
import { requireTeam } from '../../app/require-team.ts';
import { availability, grid, quote, type Scope, slots } from './booking-evaluation.ts';
import { linkRequester, linkWriter, type LinkUse, openLink } from './booking-links.service.ts';
import { patchBooking, requireBookingWriter, runBooking } from './booking-writes.service.ts';
import {
  availabilityBody,
  connectionAvailabilityBody,
  connectionQuoteBody,
  connectionRunBody,
  parseBody,
  patchBookingBody,
  quoteBody,
  runBody,
  slotGridBody,
  slotsBody,
} from './space-bookings.input.ts';
import { requireSpacesView } from './space-bookings.access.ts';
import { bookingLinkId } from './space-bookings.ids.ts';
import { findChannelOf, mappingOf } from './space-bookings.store.ts';

/** A source-connection booking route's scope: the connection of the caller's team, its channel, and (optionally) a link of that channel. */
async function connectionScope(ctx: RequestContext, connectionSimplyId: string, channelSimplyId: string, linkSimplyId?: string): Promise<Scope> {
  requireSpacesView(ctx);
  const team = requireTeam(ctx);
  const { connection, channel } = await findChannelOf(ctx.services, team.id, connectionSimplyId, channelSimplyId);
  const mapping = mappingOf(connection);
  if (linkSimplyId !== undefined) {
    bookingLinkId.assert(linkSimplyId, 'bookingLinkSimplyId');
    const link = await ctx.services.prisma.spaceBookingLink.findUnique({ where: { simplyId: linkSimplyId } });
    if (!link || link.channelId !== channel.id) throw new NotFoundError('Booking link', linkSimplyId);
  }
  return { services: ctx.services, schema: await ctx.services.schemas.get(team.id), mapping, channel, bookingLinkSimplyId: linkSimplyId ?? null, showConflicts: true };
}

async function linkScope(ctx: RequestContext, args: { bookingLinkSimplyId: string; publicAccessToken?: string | null; input?: unknown }, use: LinkUse) {
  const body = (args.input ?? {}) as { publicAccessToken?: unknown };
  const token = args.publicAccessToken ?? (typeof body.publicAccessToken === 'string' ? body.publicAccessToken : null);
  return openLink(ctx, args.bookingLinkSimplyId, token, use);
}


export interface LinkArgs {
  bookingLinkSimplyId: string;
  publicAccessToken?: string | null;
  input?: unknown;
}

export async function connectionAvailability(ctx: RequestContext, connectionSimplyId: string, input: unknown) {
  const body = parseBody(connectionAvailabilityBody, input);
  return availability(await connectionScope(ctx, connectionSimplyId, body.bookingChannelSimplyId, body.bookingLinkSimplyId), body);
}

export async function connectionQuote(ctx: RequestContext, connectionSimplyId: string, input: unknown) {
  const body = parseBody(connectionQuoteBody, input);
  return (await quote(await connectionScope(ctx, connectionSimplyId, body.bookingChannelSimplyId, body.bookingLinkSimplyId), body)).quote;
}

export async function connectionRun(ctx: RequestContext, connectionSimplyId: string, input: unknown) {
  const body = parseBody(connectionRunBody, input);
  const scope = await connectionScope(ctx, connectionSimplyId, body.bookingChannelSimplyId, body.bookingLinkSimplyId);
  await requireBookingWriter(ctx, scope);
  return runBooking(ctx, scope, body, scope.channel.settings.bookingWriteMapping.initialStatus);
}

export async function connectionPatch(ctx: RequestContext, connectionSimplyId: string, bookingRecordSimplyId: string, input: unknown) {
  const body = parseBody(patchBookingBody, input);
  return patchBooking(ctx, await connectionScope(ctx, connectionSimplyId, body.bookingChannelSimplyId), bookingRecordSimplyId, body);
}

export async function linkAvailability(ctx: RequestContext, args: LinkArgs) {
  const scope = await linkScope(ctx, args, 'availability');
  return availability(scope, parseBody(availabilityBody, args.input));
}

export async function linkSlots(ctx: RequestContext, args: LinkArgs) {
  const scope = await linkScope(ctx, args, 'availability');
  return slots(scope, parseBody(slotsBody, args.input));
}

export async function linkSlotGrid(ctx: RequestContext, args: LinkArgs) {
  const scope = await linkScope(ctx, args, 'availability');
  return grid(scope, parseBody(slotGridBody, args.input));
}

export async function linkQuote(ctx: RequestContext, args: LinkArgs) {
  const scope = await linkScope(ctx, args, 'quote');
  return (await quote(scope, parseBody(quoteBody, args.input))).quote;
}

/** A run through a link books as the link, for the verified constituent: never for someone the body names. */
export async function linkRun(ctx: RequestContext, args: LinkArgs) {
  const scope = await linkScope(ctx, args, 'run');
  const { requesterRecordSimplyId: _named, ...body } = parseBody(runBody, args.input);
  const ask = { ...body, requesterRecordSimplyId: await linkRequester(ctx, scope) };
  return runBooking(linkWriter(ctx, scope), scope, ask, scope.link.settings.outcomePolicy.initialStatus);
}
