// Live updates of a source connection: one webhook subscription per record event type (created,
// updated, deleted, bulk-synced) filtered to the mapped collections, all signed with one secret
// shown once, delivered and logged by the webhooks area like any other subscription. The target
// must be the spaces webhook receiver of this connection (Document 3 §4.4 rule 4):
// https://<SVC_SPACES_WEBHOOK_HOST>/svc-spaces/webhooks/<sourceConnectionSimplyId>.
import type { RequestContext } from '../../app/context.ts';
import { requireTeam } from '../../app/require-team.ts';
import { RECORD_EVENT_TYPES } from '../../kernel/index.ts';
import { GENERIC_SURFACE, insertSubscriptions } from '../webhooks/index.ts';
import { parseBody, webhookSubscriptionBody } from './space-bookings.input.ts';
import { requireSpacesManage } from './space-bookings.access.ts';
import { BookingRequestInvalidError } from './space-bookings.errors.ts';
import { findConnection, mappingOf } from './space-bookings.store.ts';

export const BOOKING_EVENT_TYPES = [RECORD_EVENT_TYPES.CREATED, RECORD_EVENT_TYPES.UPDATED, RECORD_EVENT_TYPES.DELETED, 'DATA_RECORDS_BULK_SYNCED'] as const;

export function receiverUrl(host: string, sourceConnectionSimplyId: string): string {
  return `https://${host}/svc-spaces/webhooks/${sourceConnectionSimplyId}`;
}

export async function subscribeToBookingEvents(ctx: RequestContext, sourceConnectionSimplyId: string, input: unknown) {
  requireSpacesManage(ctx);
  const team = requireTeam(ctx);
  const connection = await findConnection(ctx.services, team.id, sourceConnectionSimplyId);
  const mapping = mappingOf(connection);
  const { targetUrl } = parseBody(webhookSubscriptionBody, input);
  const expected = receiverUrl(ctx.services.config.SVC_SPACES_WEBHOOK_HOST, connection.simplyId);
  if (targetUrl !== expected) throw new BookingRequestInvalidError(`targetUrl must be this connection's spaces webhook receiver, ${expected}`, [{ field: 'targetUrl', message: `must be ${expected}` }]);
  const collections = [...new Set([mapping.spaces.dataCollectionSimplyId, mapping.bookings.dataCollectionSimplyId, ...(mapping.people ? [mapping.people.dataCollectionSimplyId] : [])])];
  // the four count against the team's limit of record-event subscriptions, under the webhooks area's lock
  const { rows, secret } = await insertSubscriptions(ctx, GENERIC_SURFACE, { eventTypes: BOOKING_EVENT_TYPES, targetUrl, filterCriteria: { dataCollectionIds: collections } });
  return {
    secret,
    subscriptions: rows.map((r) => ({ webhookSimplyId: r.simplyId, eventType: r.eventType, targetUrl: r.targetUrl, dataCollectionSimplyIds: collections, createdAt: r.createdAt.toISOString() })),
  };
}
