// The public booking-link routes → src/modules/space-bookings/space-bookings.schema.ts. The link's
// token travels in X-SVC-Public-Token (or x-booking-public-token, ?publicAccessToken=, or the body),
// never in Authorization, which carries a constituent's session when the link needs one.
import { z } from 'zod';
import { operation } from '../../../src/app/graphql/fragments.ts';
import { jsonBody } from '../../../src/modules/space-bookings/space-bookings.input.ts';
import { route, type RestRoute, type RouteInput } from '../../route.ts';
import { PUBLIC_AVAILABILITY_EXAMPLE, PUBLIC_GRID_EXAMPLE, PUBLIC_QUOTE_EXAMPLE, PUBLIC_RUN_EXAMPLE, PUBLIC_SLOTS_EXAMPLE } from './examples.ts';

const BASE = '/v1/svc-spaces/booking-links/{bookingLinkSimplyId}';
const TOKEN = 'Public: the link\'s token in X-SVC-Public-Token (also x-booking-public-token, ?publicAccessToken=, body publicAccessToken); rate limited per address';

function header(headers: RouteInput['headers'], name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** the first of the documented places that holds a token */
function tokenOf(input: RouteInput<Record<string, string>, { publicAccessToken?: string }, Record<string, unknown>>): string | null {
  const fromBody = typeof input.body?.publicAccessToken === 'string' ? input.body.publicAccessToken : undefined;
  return header(input.headers, 'x-svc-public-token') ?? header(input.headers, 'x-booking-public-token') ?? input.query.publicAccessToken ?? fromBody ?? null;
}

function publicRoute(suffix: string, field: string, name: string, summary: string, description: string, example: unknown, status?: number): RestRoute {
  return route({
    method: 'POST',
    path: `${BASE}/${suffix}`,
    summary,
    description: `${description}. ${TOKEN}`,
    operation: operation`mutation ${name}($id: String!, $token: String, $input: JSON!) { ${field}(bookingLinkSimplyId: $id, publicAccessToken: $token, input: $input) }`,
    query: z.object({ publicAccessToken: z.string().max(200).optional() }),
    body: jsonBody,
    example,
    variables: (input) => ({ id: input.params.bookingLinkSimplyId, token: tokenOf(input as never), input: input.body }),
    status,
  });
}

export const publicLinkRoutes: readonly RestRoute[] = [
  publicRoute('availability', 'svcSpacesLinkAvailability', 'SvcSpacesLinkAvailability', 'Check availability via a link', "{ startsAt, endsAt } with UTC offsets: the link's spaces with isAvailable (conflict details suppressed) and diagnostics", PUBLIC_AVAILABILITY_EXAMPLE),
  publicRoute('slots', 'svcSpacesLinkSlots', 'SvcSpacesLinkSlots', 'List bookable slots via a link', '{ startsAt, endsAt, durationMinutes?, spaceRecordSimplyIds? }: slots[] with the spaces free for each, every candidate rechecked by the rules', PUBLIC_SLOTS_EXAMPLE),
  publicRoute('slot-grid', 'svcSpacesLinkSlotGrid', 'SvcSpacesLinkSlotGrid', 'Get a slot grid via a link', "{ spaceRecordSimplyId (unless includeSpaces), fromDate, toDate, durationMinutes? }: days[] of slots in the channel's time zone", PUBLIC_GRID_EXAMPLE),
  publicRoute('quote', 'svcSpacesLinkQuote', 'SvcSpacesLinkQuote', 'Quote a booking via a link', '{ startsAt, endsAt, spaceRecordSimplyIds, packageRecordSimplyId? }: a quote in integer minor units with line items and diagnostics', PUBLIC_QUOTE_EXAMPLE),
  publicRoute('run', 'svcSpacesLinkRun', 'SvcSpacesLinkRun', 'Book via a link', 'The quote body plus title, notes?: only with a verified constituent session (the hosted booking flow), else 403 BOOKING_LINK_VERIFICATION_REQUIRED; 409 BOOKING_PAYMENT_NOT_SUPPORTED unless the payment policy is NONE', PUBLIC_RUN_EXAMPLE, 201),
];
