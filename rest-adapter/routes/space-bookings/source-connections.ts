// The source-connection routes → src/modules/space-bookings/space-bookings.schema.ts: connection
// setup (not in the documents, which leave creation "not shown"), the snapshot, channels and the
// booking routes. Every one takes only an OAuth token of a first-party client allowed for svc-spaces.
import { operation } from '../../../src/app/graphql/fragments.ts';
import { jsonBody } from '../../../src/modules/space-bookings/space-bookings.input.ts';
import { SOURCE_CONNECTION } from '../../../src/modules/space-bookings/space-bookings.fragments.ts';
import { route, type RestRoute } from '../../route.ts';
import { CONNECTION_AVAILABILITY_EXAMPLE, CONNECTION_RUN_EXAMPLE, MAPPING_EXAMPLE, PATCH_EXAMPLE, PROVISION_EXAMPLE } from './examples.ts';

export const CONNECTIONS = '/v1/svc-spaces/source-connections';
export const CONNECTION = `${CONNECTIONS}/{sourceConnectionSimplyId}`;
const OAUTH = 'OAuth token of a first-party svc-spaces client only (others: 403 SVC_SPACES_OAUTH_CLIENT_REQUIRED)';

/** POST `${CONNECTION}/<suffix>` onto a mutation taking the connection and the body */
function connectionPost(suffix: string, field: string, name: string, summary: string, description: string, example: unknown, status?: number): RestRoute {
  return route({
    method: 'POST',
    path: `${CONNECTION}/${suffix}`,
    summary,
    description: `${description}; ${OAUTH}`,
    operation: operation`mutation ${name}($id: String!, $input: JSON!) { ${field}(sourceConnectionSimplyId: $id, input: $input) }`,
    body: jsonBody,
    example,
    variables: ({ params, body }) => ({ id: params.sourceConnectionSimplyId, input: body }),
    status,
  });
}

function connectionGet(suffix: string, field: string, name: string, summary: string, description: string): RestRoute {
  return route({
    method: 'GET',
    path: `${CONNECTION}/${suffix}`,
    summary,
    description: `${description}; ${OAUTH}`,
    operation: operation`query ${name}($id: String!) { ${field}(sourceConnectionSimplyId: $id) }`,
    variables: ({ params }) => ({ id: params.sourceConnectionSimplyId }),
  });
}

export const sourceConnectionRoutes: readonly RestRoute[] = [
  route({
    method: 'POST',
    path: CONNECTIONS,
    summary: 'Create a source connection',
    description: `{ name, mapping? }: the mapping names the team's spaces, bookings and (optionally) people collections and their fields by simplyId, each checked to exist with a fitting data type (SVC_SPACES_MANAGE). The bookings the collection already holds claim their time: existingBookings says how many, and names those that overlap an earlier one; ${OAUTH}`,
    operation: operation`mutation CreateSvcSpacesSourceConnection($input: JSON!) { createSvcSpacesSourceConnection(input: $input) { ${SOURCE_CONNECTION} existingBookings } }`,
    body: jsonBody,
    example: { name: 'Rooms and bookings', mapping: MAPPING_EXAMPLE },
    variables: ({ body }) => ({ input: body }),
    status: 201,
  }),
  route({
    method: 'GET',
    path: CONNECTIONS,
    summary: 'List source connections',
    description: `The team's source connections, newest first; ${OAUTH}`,
    operation: operation`query SvcSpacesSourceConnections { svcSpacesSourceConnections { ${SOURCE_CONNECTION} } }`,
  }),
  route({
    method: 'GET',
    path: CONNECTION,
    summary: 'Get a source connection',
    description: `One source connection with its mapping; ${OAUTH}`,
    operation: operation`query SvcSpacesSourceConnection($id: String!) { svcSpacesSourceConnection(sourceConnectionSimplyId: $id) { ${SOURCE_CONNECTION} } }`,
    variables: ({ params }) => ({ id: params.sourceConnectionSimplyId }),
  }),
  route({
    method: 'PUT',
    path: `${CONNECTION}/mapping`,
    summary: "Set a source connection's mapping",
    description: `{ mapping }: replaces the mapping, checked against the team's collections (SVC_SPACES_MANAGE); the bookings the collection already holds claim their time (existingBookings, as on create); ${OAUTH}`,
    operation: operation`mutation SetSvcSpacesSourceConnectionMapping($id: String!, $input: JSON!) { setSvcSpacesSourceConnectionMapping(sourceConnectionSimplyId: $id, input: $input) { ${SOURCE_CONNECTION} existingBookings } }`,
    body: jsonBody,
    example: { mapping: MAPPING_EXAMPLE },
    variables: ({ params, body }) => ({ id: params.sourceConnectionSimplyId, input: body }),
  }),
  connectionGet('snapshot', 'svcSpacesSnapshot', 'SvcSpacesSnapshot', 'Get the mapped booking model', 'The mapping, the spaces the caller may read and the channels; 400 SVC_SPACES_MAPPING_NOT_CONFIGURED until a mapping exists'),
  connectionGet('booking-channels', 'svcSpacesBookingChannels', 'SvcSpacesBookingChannels', 'List booking channels', '{ bookingChannels, validation }: each channel with its policy, pricing and links (never their tokens)'),
  connectionPost('booking-channels/provision', 'provisionSvcSpacesBookingChannel', 'ProvisionSvcSpacesBookingChannel', 'Provision a booking channel', '{ bookingChannel }: spaces, availabilityPolicy, pricing, bookingWriteMapping, bookingLinks; answers the raw link tokens once (SVC_SPACES_MANAGE; generateWizards also needs wizard administration)', PROVISION_EXAMPLE, 201),
  connectionPost('booking-availability', 'svcSpacesBookingAvailability', 'SvcSpacesBookingAvailability', 'Check booking availability', '{ bookingChannelSimplyId, startsAt, endsAt, spaceRecordSimplyIds?, bookingLinkSimplyId? }: spaces with isAvailable and their conflicts, and diagnostics', CONNECTION_AVAILABILITY_EXAMPLE),
  connectionPost('booking-quotes', 'svcSpacesBookingQuote', 'SvcSpacesBookingQuote', 'Quote a booking', 'As availability, spaceRecordSimplyIds required, packageRecordSimplyId?: a quote in integer minor units', CONNECTION_AVAILABILITY_EXAMPLE),
  connectionPost('booking-runs', 'svcSpacesBookingRun', 'SvcSpacesBookingRun', 'Create a booking', "The quote body plus title, notes?, requesterRecordSimplyId?, expectedAmountMinorUnits?: 201 with the booking record; the caller must create records in the booking collection and write each mapped field (403 SVC_SPACES_BOOKING_UNAUTHORIZED)", CONNECTION_RUN_EXAMPLE, 201),
  route({
    method: 'PATCH',
    path: `${CONNECTION}/bookings/{bookingRecordSimplyId}`,
    summary: 'Edit, cancel, approve or deny a booking',
    description: `{ action: EDIT | CANCEL | APPROVE | DENY, bookingChannelSimplyId, … }: EDIT changes startsAt and endsAt together, spaceRecordSimplyIds, title, notes or requesterRecordSimplyId (rechecked and re-quoted); the others take no field changes; ${OAUTH}`,
    operation: operation`mutation UpdateSvcSpacesBooking($sourceConnectionSimplyId: String!, $id: String!, $input: JSON!) { updateSvcSpacesBooking(sourceConnectionSimplyId: $sourceConnectionSimplyId, bookingRecordSimplyId: $id, input: $input) }`,
    body: jsonBody,
    example: PATCH_EXAMPLE,
    variables: ({ params, body }) => ({ sourceConnectionSimplyId: params.sourceConnectionSimplyId, id: params.bookingRecordSimplyId, input: body }),
  }),
  connectionPost('webhook-subscriptions', 'createSvcSpacesWebhookSubscriptions', 'CreateSvcSpacesWebhookSubscriptions', 'Subscribe to booking changes', "{ targetUrl }: the connection's spaces webhook receiver; one subscription per record event type over the mapped collections, one HMAC secret shown once (SVC_SPACES_MANAGE)", { targetUrl: 'https://spaces-hooks.example.org/svc-spaces/webhooks/ssc-AB23-CD45-EF67' }, 201),
];
