// Booking channels of a source connection: provisioned with their spaces, availability policy,
// pricing and links (each link's public token shown once, in the provision response, and stored
// as its SHA-256), and listed with a validation of each against the current schema.
import { createHash, randomBytes } from 'node:crypto';
import type { RequestContext } from '../../app/context.ts';
import { hasFeature } from '../../app/auth/principal.ts';
import { PermissionDeniedError } from '../../app/errors.ts';
import { publicBaseUrl } from '../../app/public-address.ts';
import { requireTeam } from '../../app/require-team.ts';
import { checkMapping } from './mapping.ts';
import { parseBody, provisionInput } from './space-bookings.input.ts';
import { requireSpacesManage, requireSpacesView } from './space-bookings.access.ts';
import { BookingRequestInvalidError } from './space-bookings.errors.ts';
import { bookingChannelId, bookingLinkId } from './space-bookings.ids.ts';
import { asChannel, asLink, type Channel, type ChannelConfig, findConnection, type Link, type LinkPolicy, mappingOf } from './space-bookings.store.ts';
import { readSpaces } from './spaces.reader.ts';

export const hashLinkToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export function channelView(channel: Channel, connectionSimplyId: string, links: Link[], baseUrl: string) {
  return {
    bookingChannelSimplyId: channel.simplyId,
    sourceConnectionSimplyId: connectionSimplyId,
    name: channel.name,
    spaceRecordSimplyIds: channel.settings.spaceRecordSimplyIds,
    availabilityPolicy: channel.settings.availabilityPolicy,
    pricing: channel.settings.pricing,
    bookingWriteMapping: channel.settings.bookingWriteMapping,
    bookingLinks: links.map((l) => linkView(l, baseUrl)),
    createdAt: channel.createdAt.toISOString(),
  };
}

export function linkView(link: Link, baseUrl: string) {
  return {
    bookingLinkSimplyId: link.simplyId,
    name: link.name,
    audience: link.audience,
    allowAnonymousAvailability: link.settings.allowAnonymousAvailability,
    paymentPolicy: link.paymentPolicy,
    outcomePolicy: link.settings.outcomePolicy,
    hostedBookingUrl: link.audience === 'INTERNAL_TEAM' ? null : `${baseUrl}/book/${link.simplyId}`,
  };
}

export async function listChannels(ctx: RequestContext, connectionSimplyId: string) {
  requireSpacesView(ctx);
  const team = requireTeam(ctx);
  const connection = await findConnection(ctx.services, team.id, connectionSimplyId);
  const rows = await ctx.services.prisma.spaceBookingChannel.findMany({ where: { connectionId: connection.id }, orderBy: { id: 'asc' }, include: { links: { orderBy: { id: 'asc' } } } });
  const schema = await ctx.services.schemas.get(team.id);
  const problems: { bookingChannelSimplyId: string | null; field: string; message: string }[] = [];
  if (!connection.mapping) problems.push({ bookingChannelSimplyId: null, field: 'mapping', message: 'the source connection has no mapping yet' });
  else {
    const mapping = mappingOf(connection);
    for (const p of checkMapping(schema, mapping)) problems.push({ bookingChannelSimplyId: null, ...p });
    for (const row of rows) {
      const channel = asChannel(row);
      const found = new Set((await readSpaces(ctx.services, schema, mapping, channel.settings.spaceRecordSimplyIds)).map((s) => s.spaceRecordSimplyId));
      channel.settings.spaceRecordSimplyIds.forEach((id, i) => {
        if (!found.has(id)) problems.push({ bookingChannelSimplyId: channel.simplyId, field: `spaceRecordSimplyIds[${i}]`, message: `${id} is no longer a space of the mapped collection` });
      });
    }
  }
  const baseUrl = publicBaseUrl(ctx.services);
  return {
    bookingChannels: rows.map((row) => channelView(asChannel(row), connection.simplyId, row.links.map(asLink), baseUrl)),
    validation: { isValid: problems.length === 0, problems },
  };
}

export async function provisionChannel(ctx: RequestContext, connectionSimplyId: string, input: unknown) {
  requireSpacesManage(ctx);
  const team = requireTeam(ctx);
  const connection = await findConnection(ctx.services, team.id, connectionSimplyId);
  const mapping = mappingOf(connection);
  const { bookingChannel: body } = parseBody(provisionInput, input);
  if (body.generateWizards && !hasFeature(ctx.principal, 'TEAM_ADMIN_DATA_WIZARDS', 'EDIT')) {
    throw new PermissionDeniedError('Generating booking wizards needs wizard administration (TEAM_ADMIN_DATA_WIZARDS)');
  }
  const schema = await ctx.services.schemas.get(team.id);
  const found = new Set((await readSpaces(ctx.services, schema, mapping, body.spaceRecordSimplyIds)).map((s) => s.spaceRecordSimplyId));
  const missing = body.spaceRecordSimplyIds.flatMap((id, i) => (found.has(id) ? [] : [{ field: `bookingChannel.spaceRecordSimplyIds[${i}]`, message: `${id} is not a space of collection ${mapping.spaces.dataCollectionSimplyId}` }]));
  if (missing.length > 0) throw new BookingRequestInvalidError('Some spaces are not records of the mapped spaces collection', missing);
  const config: ChannelConfig = {
    spaceRecordSimplyIds: [...new Set(body.spaceRecordSimplyIds)],
    availabilityPolicy: body.availabilityPolicy,
    pricing: body.pricing,
    bookingWriteMapping: body.bookingWriteMapping,
  };
  const tokens: { bookingLinkSimplyId: string; audience: string; publicAccessToken: string }[] = [];
  const created = await ctx.services.prisma.$transaction(async (tx) => {
    const channel = await tx.spaceBookingChannel.create({ data: { simplyId: bookingChannelId.create(), teamId: team.id, connectionId: connection.id, name: body.name, config: config as never } });
    const links = [];
    for (const l of body.bookingLinks) {
      const token = `svc_book_${randomBytes(24).toString('base64url')}`;
      const policy: LinkPolicy = { allowAnonymousAvailability: l.allowAnonymousAvailability, outcomePolicy: l.outcomePolicy };
      const link = await tx.spaceBookingLink.create({
        data: { simplyId: bookingLinkId.create(), teamId: team.id, channelId: channel.id, name: l.name, audience: l.audience, paymentPolicy: l.paymentPolicy, policy: policy as never, tokenHash: hashLinkToken(token) },
      });
      tokens.push({ bookingLinkSimplyId: link.simplyId, audience: link.audience, publicAccessToken: token });
      links.push(asLink(link));
    }
    return { channel: asChannel(channel), links };
  });
  return {
    bookingChannel: channelView(created.channel, connection.simplyId, created.links, publicBaseUrl(ctx.services)),
    wizardDiagnostics: body.generateWizards
      ? [{ code: 'HOSTED_BOOKING_FLOW_USED', message: 'Bookings through links complete in the hosted booking flow of each link (hostedBookingUrl); no data wizard is generated' }]
      : [],
    publicAccessTokens: tokens,
    validation: { isValid: true, problems: [] },
  };
}
