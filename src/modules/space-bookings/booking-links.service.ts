// The public booking-link routes: the link found by its id and token (hashed; a wrong token and an
// unknown link read alike), the audience policy (Document 3 §4.4 rules 1-2), the per-address limit
// shared by every instance, then the same evaluation the source-connection routes use, with
// conflict details left out.
import { timingSafeEqual } from 'node:crypto';
import type { Principal } from '../../app/auth/principal.ts';
import { systemContext, type RequestContext } from '../../app/context.ts';
import { InvalidTeamSelectionError, PermissionDeniedError } from '../../app/errors.ts';
import { findRecordsById } from '../../kernel/index.ts';
import { takeFromWindow } from '../constituent-auth/index.ts';
import { hashLinkToken } from './channels.service.ts';
import type { Scope } from './booking-evaluation.ts';
import { BookingLinkNotFoundError, LinkVerificationRequiredError, PaymentNotSupportedError } from './space-bookings.errors.ts';
import { bookingLinkId } from './space-bookings.ids.ts';
import { asChannel, asLink, type Link, mappingOf } from './space-bookings.store.ts';

export type LinkUse = 'availability' | 'quote' | 'run';

export interface LinkScope extends Scope {
  link: Link;
  teamSimplyId: string;
}

/** A verified constituent session of the link's team (the constituent sign-in of docs/api/constituent-auth.md). */
function verifiedFor(p: Principal, teamId: bigint): boolean {
  return p.kind === 'CONSTITUENT' && p.constituent !== undefined && p.team?.id === teamId;
}

export async function openLink(ctx: RequestContext, bookingLinkSimplyId: string, token: string | null | undefined, use: LinkUse): Promise<LinkScope> {
  const services = ctx.services;
  // a credential that asked for a team it cannot use is refused here too, as everywhere
  const teamError = ctx.principal.teamError;
  if (teamError instanceof PermissionDeniedError || teamError instanceof InvalidTeamSelectionError) throw teamError;
  await takeFromWindow(services.pool, { bucket: `svc-spaces:public:ip:${ctx.clientIp}`, limit: services.config.SVC_SPACES_PUBLIC_REQUESTS_PER_MINUTE, windowSeconds: 60 });
  if (!bookingLinkId.is(bookingLinkSimplyId) || !token) throw new BookingLinkNotFoundError(bookingLinkSimplyId);
  const row = await services.prisma.spaceBookingLink.findUnique({ where: { simplyId: bookingLinkSimplyId }, include: { channel: { include: { connection: true } } } });
  const hash = Buffer.from(hashLinkToken(token), 'hex');
  if (!row || !timingSafeEqual(hash, Buffer.from(row.tokenHash, 'hex')) || row.audience === 'INTERNAL_TEAM') throw new BookingLinkNotFoundError(bookingLinkSimplyId);
  const link = asLink(row);
  const verified = verifiedFor(ctx.principal, row.teamId);
  // rule 1: a constituent-only link exposes nothing before verification; a public one may let anyone browse
  if (!verified && row.audience === 'AUTHORIZED_CONSTITUENT') throw new LinkVerificationRequiredError('This booking link is for verified constituents: sign in first');
  // a link that needs payment can take no booking at all, verified or not: say so before asking for a session
  if (use === 'run' && row.paymentPolicy !== 'NONE') throw new PaymentNotSupportedError(row.paymentPolicy);
  if (!verified) {
    if (use === 'run') throw new LinkVerificationRequiredError('Bookings through this link complete in its hosted booking flow with a verified session');
    if (!link.settings.allowAnonymousAvailability) throw new LinkVerificationRequiredError('This booking link shows availability and quotes to verified sessions only');
  }
  const team = await services.prisma.team.findUnique({ where: { id: row.teamId }, select: { simplyId: true } });
  return {
    services,
    schema: await services.schemas.get(row.teamId),
    mapping: mappingOf(row.channel.connection),
    channel: asChannel(row.channel),
    bookingLinkSimplyId: row.simplyId,
    showConflicts: false,
    link,
    teamSimplyId: team?.simplyId ?? '',
  };
}

/** Who writes a booking made through a link: the link itself, with edit access to its team's records. */
export function linkWriter(ctx: RequestContext, scope: LinkScope): RequestContext {
  const principal: Principal = {
    kind: 'PUBLIC_LINK',
    credentialId: scope.link.simplyId,
    userId: null,
    userSimplyId: null,
    apiKeyId: null,
    isSystemAdmin: false,
    isTeamAdmin: false,
    team: { id: scope.link.teamId, simplyId: scope.teamSimplyId, name: '' },
    teamError: null,
    features: new Map(),
    scopes: null,
    data: { full: null, collections: new Map([[scope.mapping.bookings.dataCollectionSimplyId, new Set(['READ', 'EDIT'] as const)]]), fields: new Map() },
    teamRoleSimplyId: null,
    expiresAt: null,
  };
  return { ...systemContext(ctx.services, principal, ctx.requestId), clientIp: ctx.clientIp, source: ctx.source };
}

/**
 * Who books through a link: the verified constituent's own record, when the mapping has a
 * requester field pointing at the collection that record is in. A public caller never names
 * someone else as the requester.
 */
export async function linkRequester(ctx: RequestContext, scope: LinkScope): Promise<string | undefined> {
  const c = ctx.principal.constituent;
  const field = scope.mapping.bookings.requesterFieldSimplyId;
  if (!c || !field || !scope.mapping.people) return undefined;
  const [row] = await findRecordsById(ctx.services.pool, scope.link.teamId, [c.dataRecordId]);
  const people = scope.schema.collectionsBySimplyId.get(scope.mapping.people.dataCollectionSimplyId);
  return row && !row.deletedAt && people && row.collectionId === people.id ? row.simplyId : undefined;
}
